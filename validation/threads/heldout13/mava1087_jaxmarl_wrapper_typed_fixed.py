# source: https://github.com/instadeepai/Mava/pull/1087
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The PR types the counter (jnp.array(0, dtype=int), step + jnp.array(1, dtype=int)) and casts discount with astype(float), so reset and step agree and the learner compiles once.

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
from typing import Any, Dict, List, NamedTuple

import chex
import jax
import jax.numpy as jnp
from flax.struct import dataclass

Array = jax.Array
PRNGKey = chex.PRNGKey


# scaffolding: jumanji/jaxmarl are not installed; minimal TimeStep, StepType, restart, Observation and
# a toy two-agent JaxMarl environment with strongly typed outputs
class StepType:
    FIRST = jnp.int8(0)
    MID = jnp.int8(1)
    LAST = jnp.int8(2)


@dataclass
class TimeStep:
    step_type: Array
    reward: Array
    discount: Array
    observation: Any


def restart(observation, shape=()):
    return TimeStep(StepType.FIRST, jnp.zeros(shape, jnp.float32),
                    jnp.ones(shape, jnp.float32), observation)


class Observation(NamedTuple):
    agents_view: Array
    action_mask: Array
    step_count: Array


class ToyJaxMarlEnv:
    agents = ["agent_0", "agent_1"]
    num_agents = 2

    def reset(self, key):
        obs = {a: jax.random.normal(jax.random.fold_in(key, i), (3,)) for i, a in enumerate(self.agents)}
        return obs, {"pos": jnp.stack(list(obs.values())), "t": jnp.array(0, jnp.int32)}

    def step(self, key, state, actions):
        pos = state["pos"] + 0.1 * jnp.stack([actions[a] for a in self.agents])[:, None]
        t = state["t"] + 1
        done_all = t >= 4
        obs = {a: pos[i] for i, a in enumerate(self.agents)}
        reward = {a: -jnp.sum(pos[i] ** 2) for i, a in enumerate(self.agents)}
        done = {a: done_all for a in self.agents}
        done["__all__"] = done_all
        return obs, {"pos": pos, "t": jnp.where(done_all, 0, t)}, reward, done, {}


def batchify(x: Dict[str, Array], agents: List[str]) -> Array:
    """Stack dictionary values into a single array."""
    return jnp.stack([x[agent] for agent in agents])


def unbatchify(x: Array, agents: List[str]) -> Dict[str, Array]:
    """Split array into dictionary entries."""
    return {agent: x[i] for i, agent in enumerate(agents)}


@dataclass
class JaxMarlState:
    """Wrapper around a JaxMarl state to provide necessary attributes for jumanji environments."""

    state: Any
    key: chex.PRNGKey
    step: int


class JaxMarlWrapper:
    """A wrapper for JaxMarl environments (constructor, specs and global state trimmed)."""

    def __init__(self, env):
        self._env = env
        self.agents = env.agents
        self.num_agents = env.num_agents

    def _create_observation(self, obs, env_state):
        agents_view = batchify(obs, self.agents)
        return Observation(agents_view, jnp.ones((self.num_agents, 2), bool),
                           jnp.zeros(self.num_agents, jnp.int32))  # scaffolding

    def reset(self, key: PRNGKey):
        key, reset_key = jax.random.split(key)
        obs, env_state = self._env.reset(reset_key)

        obs = self._create_observation(obs, env_state)
        state = JaxMarlState(env_state, key, jnp.array(0, dtype=int))
        timestep = restart(obs, shape=(self.num_agents,))

        return state, timestep

    def step(self, state: JaxMarlState, action: Array):
        # todo: how do you know if it's a truncation with only dones?
        key, step_key = jax.random.split(state.key)
        obs, env_state, reward, done, _ = self._env.step(
            step_key, state.state, unbatchify(action, self.agents)
        )

        obs = self._create_observation(obs, env_state)
        obs = obs._replace(step_count=jnp.repeat(state.step, self.num_agents))
        step_type = jax.lax.select(done["__all__"], StepType.LAST, StepType.MID)

        ts = TimeStep(
            step_type=step_type,
            reward=batchify(reward, self.agents),
            discount=(1.0 - batchify(done, self.agents)).astype(float),
            observation=obs,
        )
        state = JaxMarlState(env_state, key, state.step + jnp.array(1, dtype=int))

        return state, ts


# scaffolding: an anakin-style learner; the env state and timestep returned by one update are fed
# to the next, as in Mava's systems (jit instead of pmap)
env = JaxMarlWrapper(ToyJaxMarlEnv())


def learner_fn(env_state, timestep, key):
    def _env_step(carry, k):
        env_state, timestep = carry
        action = jax.random.randint(k, (env.num_agents,), 0, 2)
        env_state, timestep = env.step(env_state, action)
        return (env_state, timestep), timestep.reward.mean()

    (env_state, timestep), rewards = jax.lax.scan(_env_step, (env_state, timestep), jax.random.split(key, 8))
    return env_state, timestep, rewards.mean()


learn = jax.jit(learner_fn)
key = jax.random.PRNGKey(0)
env_state, timestep = env.reset(key)
calls = 0
for update in range(3):
    key, subkey = jax.random.split(key)
    env_state, timestep, _ = learn(env_state, timestep, subkey)
    calls += 1
_report({"jit(learner_fn)"}, calls)
