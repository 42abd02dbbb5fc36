# source: https://github.com/instadeepai/jumanji/commit/512838e5e6138068c0d6eb2a47ac70e73a994052
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: reset stores position=-1, a Python int, so the jitted reset returns a weak-typed int32 position; but the lax.cond in step keeps the returned position weak as well, so the state keeps one signature and step compiles once for 4 calls.

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
from typing import Dict, Generic, NamedTuple, Optional, Sequence, Tuple, TypeVar, Union

import chex
from dataclasses import field  # scaffolding
import jax
import jax.numpy as jnp
from chex import Array, PRNGKey, dataclass
from jax import random


# jumanji/types.py (docstrings cut)
class StepType(jnp.int8):
    # Denotes the first `TimeStep` in a sequence.
    FIRST = jnp.array(0, jnp.int8)
    # Denotes any `TimeStep` in a sequence that is not FIRST or LAST.
    MID = jnp.array(1, jnp.int8)
    # Denotes the last `TimeStep` in a sequence.
    LAST = jnp.array(2, jnp.int8)


Observation = TypeVar("Observation")


@dataclass
class TimeStep(Generic[Observation]):
    step_type: StepType
    reward: Array
    discount: Array
    observation: Observation
    extras: Optional[Dict] = None


def restart(observation, extras=None, shape: Union[int, Sequence[int]] = ()) -> TimeStep:
    return TimeStep(
        step_type=StepType.FIRST,
        reward=jnp.zeros(shape, dtype=float),
        discount=jnp.ones(shape, dtype=float),
        observation=observation,
        extras=extras,
    )


def transition(reward, observation, discount=None, extras=None, shape=()) -> TimeStep:
    discount = discount if discount is not None else jnp.ones(shape, dtype=float)
    return TimeStep(
        step_type=StepType.MID,
        reward=reward,
        discount=discount,
        observation=observation,
        extras=extras,
    )


def termination(reward, observation, extras=None, shape=()) -> TimeStep:
    return TimeStep(
        step_type=StepType.LAST,
        reward=reward,
        discount=jnp.zeros(shape, dtype=float),
        observation=observation,
        extras=extras,
    )


# jumanji/environments/routing/tsp/types.py
@dataclass
class State:
    problem: Array  # (num_cities, 2)
    position: jnp.int32
    visited_mask: Array  # (num_cities,)
    order: Array  # (num_cities,)
    num_visited: jnp.int32
    key: chex.PRNGKey = field(default_factory=lambda: jax.random.PRNGKey(0))  # scaffolding: Python 3.11 rejects an array default


class TSPObservation(NamedTuple):
    problem: Array
    start_position: jnp.int32
    position: jnp.int32
    action_mask: Array


# jumanji/environments/routing/tsp/utils.py
def compute_tour_length(problem: Array, order: Array) -> jnp.float32:
    """Calculate the length of a tour."""
    problem = problem[order]
    return jnp.linalg.norm((problem - jnp.roll(problem, -1, axis=0)), axis=1).sum()


def generate_problem(problem_key: PRNGKey, num_cities: jnp.int32) -> Array:
    return random.uniform(problem_key, (num_cities, 2), minval=0, maxval=1)


# jumanji/environments/routing/tsp/env.py (before the commit; specs and docstrings cut)
class TSP:
    def __init__(self, num_cities: int = 10):
        self.num_cities = num_cities

    def reset(self, key: PRNGKey) -> Tuple[State, TimeStep]:
        problem = generate_problem(key, self.num_cities)
        state = State(
            problem=problem,
            position=-1,
            visited_mask=jnp.zeros(self.num_cities, dtype=bool),
            order=-1 * jnp.ones(self.num_cities, jnp.int32),
            num_visited=jnp.int32(0),
        )
        timestep = restart(observation=self._state_to_observation(state))
        return state, timestep

    def step(self, state: State, action) -> Tuple[State, TimeStep]:
        is_valid = state.visited_mask[action] == 0
        state = jax.lax.cond(
            pred=is_valid,
            true_fun=lambda x: self._update_state(x[0], x[1]),
            false_fun=lambda _: state,
            operand=[state, action],
        )
        timestep = self._state_to_timestep(state, is_valid)
        return state, timestep

    def _update_state(self, state: State, next_position: int) -> State:
        return State(
            problem=state.problem,
            position=next_position,
            visited_mask=state.visited_mask.at[next_position].set(True),
            order=state.order.at[state.num_visited].set(next_position),
            num_visited=state.num_visited + 1,
        )

    def _state_to_observation(self, state: State) -> TSPObservation:
        return TSPObservation(
            problem=state.problem,
            start_position=state.order[0],
            position=state.position,
            action_mask=jnp.logical_not(state.visited_mask),
        )

    def _state_to_timestep(self, state: State, is_valid: bool) -> TimeStep:
        is_done = (state.num_visited == self.num_cities) | (~is_valid)

        def make_termination_timestep(state: State) -> TimeStep:
            return termination(
                reward=-compute_tour_length(state.problem, state.order),
                observation=self._state_to_observation(state),
            )

        def make_transition_timestep(state: State) -> TimeStep:
            return transition(
                reward=jnp.float32(0), observation=self._state_to_observation(state)
            )

        timestep: TimeStep = jax.lax.cond(
            is_done, make_termination_timestep, make_transition_timestep, state
        )
        return timestep


# scaffolding: the usual jumanji loop (jit reset and step, step with the returned state)
env = TSP(num_cities=10)
reset_fn = jax.jit(env.reset)
step_fn = jax.jit(env.step)
state, timestep = reset_fn(jax.random.PRNGKey(0))
calls = 0
for city in range(4):
    action = jnp.array(city, jnp.int32)
    state, timestep = step_fn(state, action)
    calls += 1
_report({"jit(step)"}, calls)
