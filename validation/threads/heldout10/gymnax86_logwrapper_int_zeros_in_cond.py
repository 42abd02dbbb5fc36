# source: https://github.com/RobertTLange/gymnax/issues/86
# expect: trace-time-error at line 63
# runtime: ERROR TypeError
# why: LogWrapper.reset builds LogEnvState(env_state, 0, 0, 0, 0) with Python int zeros, while step returns float episode returns; selecting between reset and step with jax.lax.cond inside the user's jitted step then fails at trace time because the two branches return different dtypes.

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
import functools
from typing import Any, Dict, Optional, Tuple, Union

from flax import struct
import jax
import jax.numpy as jnp


class GymnaxWrapper(object):
    """Base class for Gymnax wrappers."""

    def __init__(self, env):
        self._env = env

    # provide proxy access to regular attributes of wrapped object
    def __getattr__(self, name):
        return getattr(self._env, name)


@struct.dataclass
class LogEnvState:
    env_state: Any
    episode_returns: float
    episode_lengths: int
    returned_episode_returns: float
    returned_episode_lengths: int


class LogWrapper(GymnaxWrapper):
    """Log the episode returns and lengths."""

    @functools.partial(jax.jit, static_argnums=(0,))
    def reset(self, key, params=None):
        obs, env_state = self._env.reset(key, params)
        state = LogEnvState(env_state, 0, 0, 0, 0)
        return obs, state

    @functools.partial(jax.jit, static_argnums=(0,))
    def step(self, key, state, action, params=None):
        obs, env_state, reward, done, info = self._env.step(
            key, state.env_state, action, params
        )
        new_episode_return = state.episode_returns + reward
        new_episode_length = state.episode_lengths + 1
        state = LogEnvState(
            env_state=env_state,
            episode_returns=new_episode_return * (1 - done),
            episode_lengths=new_episode_length * (1 - done),
            returned_episode_returns=state.returned_episode_returns * (1 - done)
            + new_episode_return * done,
            returned_episode_lengths=state.returned_episode_lengths * (1 - done)
            + new_episode_length * done,
        )
        info["returned_episode_returns"] = state.returned_episode_returns
        info["returned_episode_lengths"] = state.returned_episode_lengths
        info["returned_episode"] = done
        return obs, state, reward, done, info


class _Space:  # scaffolding: stand-in for gymnax.environments.spaces.Discrete
    def sample(self, rng):
        return jax.random.randint(rng, (), 0, 3)


class CatchStandIn:  # scaffolding: stand-in for gymnax's Catch-bsuite environment
    def reset(self, key, params=None):
        state = jax.random.randint(key, (2,), 0, 5)
        return state.astype(jnp.float32), state

    def step(self, key, state, action, params=None):
        new_state = state.at[0].add(action - 1)
        reward = jnp.where(new_state[0] == state[1], 1.0, -1.0)
        done = new_state[0] > 4
        return new_state.astype(jnp.float32), new_state, reward, done, {}

    def action_space(self, params=None):
        return _Space()


env, env_params = CatchStandIn(), None  # scaffolding: gymnax.make("Catch-bsuite")
env = LogWrapper(env)

rng = jax.random.PRNGKey(0)
rng_step, rng_reset = jax.random.split(rng)
obs, env_state = env.reset(rng_reset, env_params)

@jax.jit
def step(rng):
    rng_step, rng_act, rng_reset = jax.random.split(rng, 3)

    action = env.action_space(env_params).sample(rng_act)
    next_obs, next_env_state, reward, done, _ = env.step(rng_step, env_state, action, env_params)
    next_obs, next_env_state = jax.lax.cond(
        done,
        lambda: env.reset(rng_reset, env_params),
        lambda: (next_obs, next_env_state),
    )

try:  # scaffolding
    step(rng_step)
    _report({"jit(step)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
