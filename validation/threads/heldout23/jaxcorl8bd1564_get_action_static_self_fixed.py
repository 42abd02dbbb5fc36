# source: https://github.com/nissymori/JAX-CORL/commit/8bd1564c523e468359573d823ae65e06bc6ba0be
# expect: none
# runtime: COMPILES 1 CALLS 30
# why: The commit's ReBRAC.get_action (jit with static self, the train state as an argument) bound with functools.partial compiles once across evaluations.

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


from functools import partial
from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import optax
import flax.linen as nn  # scaffolding
from flax.training.train_state import TrainState


def trange(n, **kwargs):  # scaffolding: tqdm stand-in
    return range(n)


class _Env:  # scaffolding: stand-in for a D4RL gym env (5-step episodes, 3-dim observations)
    def seed(self, s): pass
    action_space = observation_space = type("S", (), {"seed": lambda self, s: None})()
    def reset(self):
        self.t = 0
        return np.ones(3)
    def step(self, action):
        self.t += 1
        return np.ones(3) * self.t, float(np.sum(action)), self.t >= 5, {}
    def get_normalized_score(self, r):
        return np.asarray(r) / 10.0


class _Actor(nn.Module):  # scaffolding
    @nn.compact
    def __call__(self, obs):
        return nn.tanh(nn.Dense(2)(obs))


class ReBRACTrainState(NamedTuple):  # scaffolding: the repo's NamedTuple (called SACNState before the commit)
    actor: TrainState


def create_train_state():  # scaffolding
    actor = _Actor()
    return ReBRACTrainState(actor=TrainState.create(apply_fn=actor.apply, params=actor.init(jax.random.PRNGKey(0), jnp.ones(3)), tx=optax.adam(1e-3)))


class _Config:  # scaffolding
    eval_episodes = 2
    eval_seed = 0


config = _Config()  # scaffolding
env = _Env()  # scaffolding
obs_mean, obs_std = np.zeros(3), np.ones(3)  # scaffolding

gym = type('gym', (), {'Env': object})  # scaffolding


# algos/rebrac.py after the commit: ReBRAC.get_action (jit, static self) and the new evaluate
class ReBRAC(object):
    @partial(jax.jit, static_argnums=(0,))
    def get_action(self, train_state: ReBRACTrainState, obs: jax.Array) -> jax.Array:
        return train_state.actor.apply_fn(train_state.actor.params, obs)


def evaluate(
    policy_fn: Callable[[jnp.ndarray], jnp.ndarray],
    env: gym.Env,
    num_episodes: int,
    obs_mean,
    obs_std,
) -> float:  # D4RL specific
    episode_returns = []
    for _ in range(num_episodes):
        episode_return = 0
        observation, done = env.reset(), False
        while not done:
            observation = (observation - obs_mean) / obs_std
            action = policy_fn(obs=observation)
            observation, reward, done, info = env.step(action)
            episode_return += reward
        episode_returns.append(episode_return)
    return env.get_normalized_score(np.mean(episode_returns)) * 100


train_state = create_train_state()  # scaffolding
rebrac = ReBRAC()
for step in range(3):  # scaffolding: training cut to a params update, evaluation every step
    train_state = train_state._replace(actor=train_state.actor.replace(params=jax.tree.map(lambda p: p + 0.1, train_state.actor.params)))  # scaffolding
    policy_fn = partial(rebrac.get_action, train_state)
    normalized_score = evaluate(policy_fn, env, config.eval_episodes, obs_mean, obs_std)
print(float(normalized_score))  # scaffolding
_report({"jit(get_action)"}, 3 * 2 * 5)  # scaffolding
