# source: https://github.com/MichaelTMatthews/Craftax/pull/48
# expect: changing-static at line 43
# runtime: COMPILES 3 CALLS 15
# why: EnvironmentNoAutoReset.step is jitted with static_argnums=(0, 4), so the EnvParams dataclass is a static argument; every distinct parameter setting (here three day lengths) is a new cache key and recompiles step.

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
from dataclasses import dataclass

import jax
from typing import Union
from functools import partial


class EnvironmentNoAutoReset(object):
    """Similar to the base Gymnax environment but without auto-resets."""

    @property
    def default_params(self):
        return NotImplementedError

    @partial(jax.jit, static_argnums=(0, 4))
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

    @partial(jax.jit, static_argnums=(0, 2))
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

    def get_obs(self, state) -> jax.Array:
        """Applies observation function to state."""
        raise NotImplementedError

import jax.numpy as jnp
from flax import struct


@struct.dataclass
class EnvParams:
    max_timesteps: int = 10000
    day_length: int = 300

    always_diamond: bool = True

    zombie_health: int = 5
    cow_health: int = 3
    skeleton_health: int = 3

    mob_despawn_distance: int = 14

    spawn_cow_chance: float = 0.1
    spawn_zombie_base_chance: float = 0.02
    spawn_zombie_night_chance: float = 0.1
    spawn_skeleton_chance: float = 0.05

    fractal_noise_angles: tuple[int, int, int, int] = (None, None, None, None)


@struct.dataclass
class EnvState:  # scaffolding: a few fields of Craftax-Classic's EnvState
    player_position: jax.Array
    light_level: jax.Array
    zombies: jax.Array
    timestep: jax.Array


class ToyCraftaxNoAutoReset(EnvironmentNoAutoReset):
    """scaffolding: a tiny stand-in for CraftaxClassicSymbolicEnvNoAutoReset (day/night cycle and
    zombie spawning driven by EnvParams)."""

    @property
    def default_params(self) -> EnvParams:
        return EnvParams()

    def step_env(self, rng, state, action, params):
        moves = jnp.array([[0, 0], [0, 1], [1, 0], [0, -1], [-1, 0]])
        pos = jnp.clip(state.player_position + moves[action % 5], 0, 63)
        t = state.timestep + 1
        light = jnp.asarray(1.0 - jnp.abs(jnp.cos(jnp.pi * t / params.day_length)) ** 3, jnp.float32)
        chance = params.spawn_zombie_base_chance + (1 - light) * params.spawn_zombie_night_chance
        zombies = state.zombies + jax.random.bernoulli(rng, chance)
        state = state.replace(player_position=pos, light_level=light, zombies=zombies, timestep=t)
        reward = jnp.float32(0.0)
        done = state.timestep >= params.max_timesteps
        return self.get_obs(state), state, reward, done, {"discount": 1.0 - done}

    def reset_env(self, rng, params):
        state = EnvState(
            player_position=jnp.array([32, 32]),
            light_level=jnp.float32(1.0),
            zombies=jnp.int32(0),
            timestep=jnp.int32(0),
        )
        return self.get_obs(state), state

    def get_obs(self, state):
        return jnp.concatenate([state.player_position / 64.0, state.light_level[None], state.zombies[None] / 3.0])


# scaffolding: evaluate a random policy under three day lengths, five steps each
env = ToyCraftaxNoAutoReset()
rng = jax.random.PRNGKey(0)
calls = 0
for day_length in (300, 200, 100):
    params = EnvParams(day_length=day_length)
    rng, _rng = jax.random.split(rng)
    obs, state = env.reset(_rng, params)
    for t in range(5):
        rng, _rng, _act = jax.random.split(rng, 3)
        action = jax.random.randint(_act, (), 0, 17)
        obs, state, reward, done, info = env.step(_rng, state, action, params)
        calls += 1
_report({"jit(step)"}, calls)
