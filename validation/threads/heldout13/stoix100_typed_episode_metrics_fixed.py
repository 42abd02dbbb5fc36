# source: https://github.com/EdanToledo/Stoix/pull/100
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The PR initialises the counters and metrics as typed jnp arrays, so reset and step produce the same types and the learner compiles once.

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
from typing import Any, Dict, Tuple

import chex
import jax
import jax.numpy as jnp
from flax.struct import dataclass


# scaffolding: jumanji is not installed; minimal TimeStep, Wrapper and a toy environment
@dataclass
class TimeStep:
    step_type: chex.Array
    reward: chex.Array
    discount: chex.Array
    observation: chex.Array
    extras: Dict[str, Any]

    def last(self):
        return self.step_type == 2


class Wrapper:
    def __init__(self, env):
        self._env = env


class ToyEnv:
    def reset(self, key):
        pos = jax.random.uniform(key, (2,))
        return (pos, jnp.array(0, dtype=jnp.int32)), TimeStep(
            jnp.array(0, jnp.int32), jnp.array(0.0, jnp.float32), jnp.array(1.0, jnp.float32), pos, {})

    def step(self, state, action):
        pos, t = state
        pos = pos + 0.1 * action
        t = t + 1
        done = t >= 5
        step_type = jnp.where(done, 2, 1).astype(jnp.int32)
        t = jnp.where(done, 0, t)
        return (pos, t), TimeStep(step_type, -jnp.sum(pos**2), (1.0 - done).astype(jnp.float32), pos, {})


State = Any


@dataclass
class RecordEpisodeMetricsState:
    """State of the `LogWrapper`."""

    env_state: State
    key: chex.PRNGKey
    # Temporary variables to keep track of the episode return and length.
    running_count_episode_return: chex.Numeric
    running_count_episode_length: chex.Numeric
    # Final episode return and length.
    episode_return: chex.Numeric
    episode_length: chex.Numeric


class RecordEpisodeMetrics(Wrapper):
    """Record the episode returns and lengths."""

    def reset(self, key: chex.PRNGKey) -> Tuple[RecordEpisodeMetricsState, TimeStep]:
        """Reset the environment."""
        key, reset_key = jax.random.split(key)
        state, timestep = self._env.reset(reset_key)
        state = RecordEpisodeMetricsState(
            state,
            key,
            jnp.array(0.0, dtype=float),
            jnp.array(0, dtype=int),
            jnp.array(0.0, dtype=float),
            jnp.array(0, dtype=int),
        )
        timestep.extras["episode_metrics"] = {
            "episode_return": jnp.array(0.0, dtype=float),
            "episode_length": jnp.array(0, dtype=int),
            "is_terminal_step": jnp.array(False, dtype=bool),
        }
        return state, timestep

    def step(
        self,
        state: RecordEpisodeMetricsState,
        action: chex.Array,
    ) -> Tuple[RecordEpisodeMetricsState, TimeStep]:
        """Step the environment."""
        env_state, timestep = self._env.step(state.env_state, action)

        done = timestep.last()
        not_done = 1 - done

        # Counting episode return and length.
        new_episode_return = state.running_count_episode_return + timestep.reward
        new_episode_length = state.running_count_episode_length + 1

        # Previous episode return/length until done and then the next episode return.
        episode_return_info = state.episode_return * not_done + new_episode_return * done
        episode_length_info = state.episode_length * not_done + new_episode_length * done

        timestep.extras["episode_metrics"] = {
            "episode_return": episode_return_info,
            "episode_length": episode_length_info,
            "is_terminal_step": done,
        }

        state = RecordEpisodeMetricsState(
            env_state=env_state,
            key=state.key,
            running_count_episode_return=new_episode_return * not_done,
            running_count_episode_length=new_episode_length * not_done,
            episode_return=episode_return_info,
            episode_length=episode_length_info,
        )
        return state, timestep


# scaffolding: an Anakin-style learner loop; the learner state (env state and last timestep)
# returned by one update is fed to the next, as in Stoix's run_experiment (jit instead of pmap).
env = RecordEpisodeMetrics(ToyEnv())


def learner_fn(env_state, timestep, key):
    def _env_step(carry, k):
        env_state, timestep = carry
        action = jax.random.normal(k, (2,))
        env_state, timestep = env.step(env_state, action)
        return (env_state, timestep), timestep.extras["episode_metrics"]["episode_return"]

    (env_state, timestep), returns = jax.lax.scan(_env_step, (env_state, timestep), jax.random.split(key, 8))
    return env_state, timestep, returns.mean()


learn = jax.jit(learner_fn)
key = jax.random.PRNGKey(0)
env_state, timestep = env.reset(key)
calls = 0
for update in range(3):
    key, subkey = jax.random.split(key)
    env_state, timestep, _ = learn(env_state, timestep, subkey)
    calls += 1
_report({"jit(learner_fn)"}, calls)
