# source: https://github.com/instadeepai/Mava/pull/906
# expect: shape-churn at line 94
# runtime: COMPILES 2 CALLS 4
# why: LogWrapper.reset seeds the episode-return fields with the Python float 0.0, so the reset states carry weak-typed float32 leaves while the states the learner returns carry strong float32; feeding the learner's output back in changes the argument types and the jitted learner is traced and compiled a second time.

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
from typing import Tuple

import chex
import jax
import jax.numpy as jnp
from flax import struct


# --- scaffolding: jumanji is not installed; a tiny vectorisable env with a jumanji-like State / TimeStep ---
@struct.dataclass
class State:  # scaffolding
    pos: chex.Array
    step_count: chex.Array


@struct.dataclass
class TimeStep:  # scaffolding
    reward: chex.Array
    step_type: chex.Array
    observation: chex.Array

    def last(self):
        return self.step_type == 2


class ToyEnv:  # scaffolding
    time_limit = 5

    def reset(self, key):
        pos = jax.random.normal(key, (2,))
        state = State(pos, jnp.array(0, jnp.int32))
        return state, TimeStep(jnp.zeros((2,)), jnp.array(0, jnp.int32), pos)

    def step(self, state, action):
        pos = state.pos + 0.1 * action
        step_count = state.step_count + 1
        step_type = jnp.where(step_count >= self.time_limit, 2, 1).astype(jnp.int32)
        state = State(jnp.where(step_type == 2, 0.0, pos), jnp.where(step_type == 2, 0, step_count))
        return state, TimeStep(-pos ** 2, step_type, pos)


class Wrapper:  # scaffolding: jumanji.wrappers.Wrapper
    def __init__(self, env):
        self._env = env


# --- jax_distribution/wrappers/jumanji.py (before the fix) ---
@struct.dataclass
class LogEnvState:
    """State of the `LogWrapper`."""

    env_state: State
    episode_returns: float
    episode_lengths: int
    # Information about the episode return and length for logging purposes.
    episode_return_info: float
    episode_length_info: int


class LogWrapper(Wrapper):
    """Log the episode returns and lengths."""

    def reset(self, key: chex.PRNGKey) -> Tuple[LogEnvState, TimeStep]:
        """Reset the environment."""
        state, timestep = self._env.reset(key)
        state = LogEnvState(state, 0.0, 0, 0.0, 0)
        return state, timestep

    def step(
        self,
        state: State,
        action: jnp.ndarray,
    ) -> Tuple[State, TimeStep]:
        """Step the environment."""
        env_state, timestep = self._env.step(state.env_state, action)

        done = timestep.last()
        not_done = 1 - done

        new_episode_return = state.episode_returns + jnp.mean(timestep.reward)
        new_episode_length = state.episode_lengths + 1
        episode_return_info = (
            state.episode_return_info * not_done + new_episode_return * done
        )
        episode_length_info = (
            state.episode_length_info * not_done + new_episode_length * done
        )

        state = LogEnvState(
            env_state=env_state,
            episode_returns=new_episode_return * not_done,
            episode_lengths=new_episode_length * not_done,
            episode_return_info=episode_return_info,
            episode_length_info=episode_length_info,
        )
        return state, timestep


# --- jax_distribution/systems/ff_ippo_rware.py, learner skeleton (scaffolding: the PPO loss/update is dropped,
# the policy is a fixed linear map of the observation) ---
config = {"NUM_ENVS": 4, "ROLLOUT_LENGTH": 3, "NUM_UPDATES_PER_EVAL": 2, "NUM_EVALUATION": 3, "SEED": 0}  # scaffolding


def get_learner_fn(env, config):
    def _update_step(runner_state, _):
        def _env_step(runner_state, unused):
            params, env_state, last_timestep = runner_state
            action = last_timestep.observation @ params  # scaffolding: stand-in policy
            env_state, timestep = jax.vmap(env.step, in_axes=(0, 0))(env_state, action)
            return (params, env_state, timestep), timestep.reward

        runner_state, traj_batch = jax.lax.scan(
            _env_step, runner_state, None, config["ROLLOUT_LENGTH"]
        )
        return runner_state, traj_batch.mean()

    def learner_fn(runner_state):
        runner_state, metric = jax.lax.scan(
            _update_step, runner_state, None, config["NUM_UPDATES_PER_EVAL"]
        )
        return {"runner_state": runner_state, "metrics": metric}

    return learner_fn


# run_experiment / learner_setup, trimmed
env = LogWrapper(ToyEnv())
rng = jax.random.PRNGKey(config["SEED"])
rng, *env_rngs = jax.random.split(rng, config["NUM_ENVS"] + 1)
env_states, timesteps = jax.vmap(env.reset, in_axes=(0))(
    jnp.stack(env_rngs),
)
params = jnp.eye(2)  # scaffolding
runner_state = (params, env_states, timesteps)

learn = get_learner_fn(env, config)
learn = jax.jit(learn)  # scaffolding: jax.pmap(learn, axis_name="device") on one CPU device; 0.10.2's pmap compiles twice regardless

calls = 0  # scaffolding
# Compile learner and evaluator.
learn(runner_state)
calls += 1  # scaffolding

# Run experiment for a total number of evaluations.
for i in range(config["NUM_EVALUATION"]):
    # Train.
    learner_output = learn(runner_state)
    jax.block_until_ready(learner_output)
    calls += 1  # scaffolding

    # Update runner state to continue training.
    runner_state = learner_output["runner_state"]

print(runner_state[1].episode_returns.dtype, runner_state[1].episode_returns.weak_type)  # scaffolding
_report({"jit(learner_fn)"}, calls)  # scaffolding
