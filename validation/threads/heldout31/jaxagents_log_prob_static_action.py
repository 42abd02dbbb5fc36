# source: https://github.com/amavrits/jax-agents/commit/c8e15429baa1174c6c20870ec69add7ca6868b24
# expect: unhashable-static at line 106
# runtime: ERROR ValueError
# why: CartpolePPO._log_prob marks argument 4 (the sampled action, an array/tracer inside the lax.scan rollout) as static, so hashing it fails while tracing the rollout.

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

from functools import partial

import jax
import jax.numpy as jnp
from flax import linen as nn
from flax.training.train_state import TrainState
from jax import lax
import optax


class _CartPole:  # scaffolding: stand-in for gymnax CartPole-v1 (not installed)
    def reset(self, rng, params):
        obs = jax.random.uniform(rng, (4,), minval=-0.05, maxval=0.05)
        return obs, obs

    def step(self, rng, state, action, params):
        force = jnp.where(action == 1, 1.0, -1.0)
        next_state = state + 0.02 * jnp.array([state[1], force, state[3], -force])
        done = jnp.abs(next_state[2]) > 0.2
        return next_state, next_state, 1.0, done, {"terminated": done}


class PPOAgent:  # (trimmed from jaxagents/ppo.py: only the rollout path is kept)
    def __init__(self, env, env_params, actor_training, critic_training, rollout_length):
        self.env = env
        self.env_params = env_params
        self.actor_training = actor_training
        self.critic_training = critic_training
        self.rollout_length = rollout_length

    @partial(jax.jit, static_argnums=(0,))
    def env_reset(self, rng):
        rng, reset_rng = jax.random.split(rng)
        obs, envstate = self.env.reset(reset_rng, self.env_params)
        return rng, obs, envstate

    @partial(jax.jit, static_argnums=(0,))
    def env_step(self, rng, envstate, action):
        rng, step_rng = jax.random.split(rng)
        next_obs, next_envstate, reward, done, info = (
            self.env.step(step_rng, envstate, action.squeeze(), self.env_params))

        return rng, next_obs, next_envstate, reward, done, info

    @partial(jax.jit, static_argnums=(0,))
    def _rollout(self, step_runner, i_step):
        envstate, obs, actor_training, critic_training, rng = step_runner

        rng, rng_action = jax.random.split(rng)
        action = self._sample_action(rng_action, actor_training, obs)

        value = critic_training.apply_fn(lax.stop_gradient(critic_training.params), obs)

        log_prob = self._log_prob(actor_training, lax.stop_gradient(actor_training.params), obs, action)

        rng, next_obs, next_envstate, reward, done, info = self.env_step(rng, envstate, action)

        step_runner = (next_envstate, next_obs, actor_training, critic_training, rng)

        terminated = info["terminated"]

        transition = (obs, action, value, log_prob, reward, next_obs, terminated)  # (_make_transition inlined)

        return step_runner, transition

    @partial(jax.jit, static_argnums=(0,))
    def collect(self, rng):  # scaffolding: the lax.scan over _rollout from _update_step
        rng, obs, envstate = self.env_reset(rng)
        step_runner = (envstate, obs, self.actor_training, self.critic_training, rng)
        scan_rollout_fn = lambda x: lax.scan(self._rollout, x, None, self.rollout_length)
        step_runner, traj_batch = scan_rollout_fn(step_runner)
        return traj_batch


class CartpolePPO(PPOAgent):

    @partial(jax.jit, static_argnums=(0, 4,))
    def _log_prob(self, training: TrainState, params: dict, state, actions):
        logits = training.apply_fn(params, state).squeeze()
        log_probs = jax.nn.log_softmax(logits)[actions]  # (distrax.Categorical(logits=logits).log_prob(actions))
        return log_probs

    @partial(jax.jit, static_argnums=(0,))
    def _sample_action(self, rng, training: TrainState, state):
        logits = training.apply_fn(jax.lax.stop_gradient(training.params), state).squeeze()
        actions = jax.random.categorical(rng, logits)  # (distrax.Categorical(logits=logits).sample(seed=rng))
        return actions


class _MLP(nn.Module):  # scaffolding: stands in for cartpole_nn_gallery's actor/critic
    out: int

    @nn.compact
    def __call__(self, x):
        return nn.Dense(self.out)(nn.tanh(nn.Dense(16)(x)))


def _trainstate(out, key):  # scaffolding
    net = _MLP(out)
    return TrainState.create(apply_fn=net.apply, params=net.init(key, jnp.zeros((4,))), tx=optax.adam(1e-3))


agent = CartpolePPO(_CartPole(), None, _trainstate(2, jax.random.PRNGKey(0)),  # scaffolding
                    _trainstate(1, jax.random.PRNGKey(1)), rollout_length=16)
try:  # scaffolding
    for i in range(3):
        traj = agent.collect(jax.random.PRNGKey(i))
    _report({"jit(collect)"}, 3)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
