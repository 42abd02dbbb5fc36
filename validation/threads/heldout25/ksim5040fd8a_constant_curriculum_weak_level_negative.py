# source: https://github.com/kscalelabs/ksim/commit/5040fd8a9c6356b47a498644f394a37054448630
# expect: none
# runtime: COMPILES 1 CALLS 6
# why: ConstantCurriculum also builds its level with jnp.array(self.level), a weakly typed float32, but its __call__ returns prev_state unchanged, so the carried level stays weak across steps and the jitted train-loop step compiles once for 6 calls.
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



import types as _types  # scaffolding

import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
from dataclasses import dataclass  # scaffolding


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class Trajectory:  # scaffolding: ksim.types.Trajectory cut to `done` and episode_length()
    done: jax.Array

    def episode_length(self) -> jax.Array:
        return jnp.full(self.done.shape[:-1], self.done.shape[-1], dtype=jnp.float32) / (1 + self.done.sum(axis=-1))


RewardState = object  # scaffolding: ksim.types.RewardState, annotations only
xax = _types.SimpleNamespace(State=object)  # scaffolding: xax.State, annotations only

# ksim/curriculum.py before the commit, cut to the constant curriculum
"""Defines a base curriculum class. Curricula are updated after every epoch."""

__all__ = [
    "Curriculum",
    "LinearCurriculum",
    "ConstantCurriculum",
    "EpisodeLengthCurriculum",
    "DistanceFromOriginCurriculum",
    "StepWhenSaturated",
]

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Generic, TypeVar

import attrs
import jax
import jax.numpy as jnp
# import xax  # scaffolding: stand-in above
from jaxtyping import Array, PRNGKeyArray

# from ksim.types import RewardState, Trajectory  # scaffolding: stand-ins above

T = TypeVar("T")


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class CurriculumState(Generic[T]):
    level: Array
    state: T


@attrs.define(frozen=True, kw_only=True)
class Curriculum(ABC, Generic[T]):
    """Base class for all curricula.

    Curricula should return a level between 0 and 1.
    """

    @abstractmethod
    def __call__(
        self,
        trajectory: Trajectory,
        rewards: RewardState,
        training_state: xax.State,
        prev_state: CurriculumState[T],
    ) -> CurriculumState[T]: ...

    @abstractmethod
    def get_initial_state(self, rng: PRNGKeyArray) -> CurriculumState[T]: ...


@attrs.define(frozen=True, kw_only=True)
class ConstantCurriculum(Curriculum[None]):
    """Constant curriculum."""

    level: float = attrs.field(default=1.0, validator=attrs.validators.ge(0.0))

    def __call__(
        self,
        trajectory: Trajectory,
        rewards: RewardState,
        training_state: xax.State,
        prev_state: CurriculumState[None],
    ) -> CurriculumState[None]:
        return prev_state

    def get_initial_state(self, rng: PRNGKeyArray) -> CurriculumState[None]:
        return CurriculumState(level=jnp.array(self.level), state=None)


# (LinearCurriculum, EpisodeLengthCurriculum, DistanceFromOriginCurriculum and StepWhenSaturated cut)


# scaffolding below: RLTask._rl_train_loop_step cut to what touches the curriculum state (a jitted
# outer step that scans single_step_fn over epochs_per_log_step and carries the curriculum state)
@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class _Carry:  # scaffolding: RLLoopCarry / env_states reduced to the curriculum state
    curriculum_state: CurriculumState


curriculum = ConstantCurriculum(level=1.0)  # scaffolding: what get_curriculum returns


@jax.jit
def _rl_train_loop_step(carry, rng):  # scaffolding: stands for the xax.jit-ed RLTask._rl_train_loop_step
    def single_step_fn(carry_i, rng):
        trajectories = Trajectory(done=jax.random.bernoulli(rng, 0.1, (4, 20)))
        curriculum_state = curriculum(
            trajectory=trajectories,
            rewards=None,
            training_state=None,
            prev_state=carry_i.curriculum_state,
        )
        return _Carry(curriculum_state=curriculum_state), curriculum_state.level

    rngs = jax.random.split(rng, 2)  # scaffolding: epochs_per_log_step=2
    carry, levels = jax.lax.scan(single_step_fn, carry, rngs)
    return carry, levels


carry = _Carry(curriculum_state=curriculum.get_initial_state(jax.random.PRNGKey(0)))  # scaffolding
for step in range(6):  # scaffolding: the training loop calls _rl_train_loop_step once per log step
    carry, levels = _rl_train_loop_step(carry, jax.random.PRNGKey(step))  # scaffolding
print(jax.typeof(carry.curriculum_state.level))  # scaffolding
_report({"jit(_rl_train_loop_step)"}, 6)  # scaffolding
