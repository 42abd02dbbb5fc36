# source: https://github.com/MichaelTMatthews/Craftax/commit/5d458560a91074b0ed1e9cf391a29768c2e34a39
# expect: none
# runtime: COMPILES 2 CALLS 4
# why: the commit keeps only self static, so the params are traced; the vmapped reset and step compile once each (2 compiles for 4 calls).

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


from dataclasses import dataclass

import jax
import jax.numpy as jnp  # scaffolding
from typing import Union
from functools import partial
from flax import struct  # scaffolding


@struct.dataclass
class EnvParams:  # craftax/craftax_classic/envs/craftax_state.py (a subset of the fields)
    max_timesteps: int = 10000
    day_length: int = 300

    always_diamond: bool = True

    zombie_health: int = 5


# craftax/environment_base/environment_bases.py (after the commit; the unused abstract methods after reset_env cut)
class EnvironmentNoAutoReset(object):
    """Similar to the base Gymnax environment but without auto-resets."""

    @property
    def default_params(self):
        return NotImplementedError

    @partial(jax.jit, static_argnums=(0,))
    def step(
        self,
        key: jax.Array,
        state,
        action: Union[int, float],
        params=None,
    ):
        """Performs step transitions in the environment."""
        # Use default env parameters if no others specified
        if params is None:
            params = self.default_params
        obs, state, reward, done, info = self.step_env(key, state, action, params)
        return obs, state, reward, done, info

    @partial(jax.jit, static_argnums=(0,))
    def reset(self, key: jax.Array, params=None):
        """Performs resetting of environment."""
        # Use default env parameters if no others specified
        if params is None:
            params = self.default_params
        obs, state = self.reset_env(key, params)
        return obs, state

    def step_env(
        self,
        key: jax.Array,
        state,
        action: Union[int, float],
        params,
    ):
        """Environment-specific step transition."""
        raise NotImplementedError

    def reset_env(self, key: jax.Array, params):
        """Environment-specific reset."""
        raise NotImplementedError


class CounterEnv(EnvironmentNoAutoReset):  # scaffolding: a toy env on the Craftax base (time counter, episode ends at max_timesteps)
    @property
    def default_params(self):
        return EnvParams()

    def reset_env(self, key, params):
        state = jnp.zeros((), jnp.int32)
        return state.astype(jnp.float32), state

    def step_env(self, key, state, action, params):
        state = state + 1
        done = state >= params.max_timesteps
        reward = jnp.where(done, 1.0, 0.0) * action
        return state.astype(jnp.float32), state, reward, done, {}


# scaffolding: a batch of environments with randomised parameters (domain randomisation), stepped with vmap
env = CounterEnv()
num_envs = 4
params = EnvParams(max_timesteps=jnp.array([5, 10, 20, 40]), day_length=jnp.full(num_envs, 300),
                   always_diamond=jnp.ones(num_envs, bool), zombie_health=jnp.full(num_envs, 5))
keys = jax.random.split(jax.random.PRNGKey(0), num_envs)
calls = 0
try:  # scaffolding
    obs, state = jax.vmap(env.reset)(keys, params)
    calls += 1
    for t in range(3):
        obs, state, reward, done, info = jax.vmap(env.step)(keys, state, jnp.ones(num_envs), params)
        calls += 1
    _report({"jit(reset)", "jit(step)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
