# source: https://github.com/nanaimi/jax-sac/commit/45b2dce52962669eba2e606bc1aaad22da1be455
# expect: trace-time-error at line 102
# runtime: ERROR TypeError
# why: SAC.policy is decorated with a bare @jax.jit, so the agent instance (self) is an ordinary jit argument and is rejected as a non-array value when the policy is first called.

# --- measurement harness: counts XLA backend compiles per jitted function name ---
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")
from jax import monitoring as _monitoring

_COMPILED = []  # one entry per XLA compile, e.g. "jit(step)"


def _on_duration(event, duration_secs, **kwargs):
    if event == "/jax/core/compile/backend_compile_duration":
        _COMPILED.append(kwargs.get("fun_name"))


_monitoring.register_event_duration_secs_listener(_on_duration)


def _report(targets, calls):
    n = sum(1 for name in _COMPILED if name in targets)
    print(f"COMPILES {n} CALLS {calls}")


# --- end harness ---

from typing import Callable

import haiku as hk
import jax
import jax.numpy as jnp
import numpy as np
import optax

PRNGKey = jnp.ndarray
Observation = np.ndarray


class Learner:  # scaffolding: sac/utils.Learner as rewritten in the fix commit (the parent's did not run under haiku)
    def __init__(self, model_fn: Callable, seed: PRNGKey, optimizer_config: dict, deterministic: bool,
                 *input_example):
        self.optimizer = optax.chain(
            optax.clip_by_global_norm(optimizer_config['clip']),
            optax.scale_by_adam(eps=optimizer_config['eps']),
            optax.scale(-optimizer_config['lr']))
        self.model = hk.transform(model_fn)
        if deterministic:
            self.model = hk.without_apply_rng(self.model)
        self.params = self.model.init(seed, *input_example)
        self.opt_state = self.optimizer.init(self.params)

    @property
    def apply(self):
        return self.model.apply


class _TanhNormal:  # scaffolding: stands in for the tfp TransformedDistribution (tfp not installed)
    def __init__(self, mu, stddev):
        self.mu, self.stddev = mu, stddev

    def sample(self, seed):
        return jnp.tanh(self.mu + self.stddev * jax.random.normal(seed, self.mu.shape))

    def mode(self, seed):
        return jnp.tanh(self.mu)


def _actor(observation):  # scaffolding: models.Actor(MLP, min_stddev) without tfp
    mu, stddev = jnp.split(hk.nets.MLP((32, 32, 2 * 2))(observation), 2, -1)
    return _TanhNormal(mu, jax.nn.softplus(stddev) + 1e-4)


class _Space:  # scaffolding: gym Box spaces
    def __init__(self, n):
        self.shape, self.low, self.high = (n,), -np.ones(n), np.ones(n)

    def sample(self):
        return np.random.uniform(self.low, self.high).astype(np.float32)


class SAC:  # (critics, entropy bonus, replay buffer, logger and updates trimmed)
    def __init__(self, observation_space, action_space, actor, config):
        self.rng_seq = hk.PRNGSequence(config['seed'])
        self.actor = Learner(actor, next(self.rng_seq), config['actor_opt'],
                             True, observation_space.sample())
        self.config = config
        self.training_step = 0
        self._prefill_policy = lambda: np.random.uniform(action_space.low,
                                                         action_space.high)

    def __call__(self, observation: Observation, training=True):
        if self.training_step <= self.config['prefill'] and training:
            return self._prefill_policy()

        action = self.policy(observation, self.actor.params,
                             next(self.rng_seq), training)
        return np.clip(action, -1.0, 1.0)

    @jax.jit
    def policy(self, observation: Observation, params: hk.Params,
               rng_key: PRNGKey, training=True) -> jnp.ndarray:
        policy = self.actor.apply(params, observation)
        action = policy.sample(seed=rng_key) if training else policy.mode(
            seed=rng_key)
        action = jnp.squeeze(action, 0)
        return action

    def observe(self, transition):
        self.training_step += 1


obs_space, act_space = _Space(3), _Space(2)  # scaffolding
config = {'seed': 0, 'prefill': 0, 'actor_opt': {'clip': 100.0, 'eps': 1e-5, 'lr': 3e-4}}  # scaffolding
agent = SAC(obs_space, act_space, _actor, config)  # scaffolding
try:  # scaffolding
    for step in range(5):  # scaffolding: the interaction loop of train_utils.train
        agent.observe({})
        action = agent(obs_space.sample(), training=True)
    _report({"jit(policy)"}, 5)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
