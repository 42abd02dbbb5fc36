# source: https://github.com/kscalelabs/ksim/commit/5040fd8a9c6356b47a498644f394a37054448630
# expect: none
# runtime: COMPILES 1 CALLS 6
# why: after the commit the initial curriculum state is built with dtype=jnp.float32 (strong), so the carried state has the same types before and after a step and the jitted train-loop step compiles once for 6 calls.
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

# ksim/curriculum.py after the commit
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
        return CurriculumState(level=jnp.array(self.level, dtype=jnp.float32), state=None)


@attrs.define(frozen=True, kw_only=True)
class LinearCurriculum(Curriculum[None]):
    """Linear curriculum."""

    step_size: float = attrs.field(default=0.01, validator=attrs.validators.ge(0.0))
    step_every_n_epochs: int = attrs.field(default=1, validator=attrs.validators.ge(1))
    min_level: float = attrs.field(default=0.0, validator=attrs.validators.ge(0.0))

    def __call__(
        self,
        trajectory: Trajectory,
        rewards: RewardState,
        training_state: xax.State,
        prev_state: CurriculumState[None],
    ) -> CurriculumState[None]:
        level = (training_state.num_steps // self.step_every_n_epochs) * self.step_size
        level = jnp.clip(level, self.min_level, 1.0)
        level = jnp.full_like(prev_state.level, level)
        return CurriculumState(level=level, state=None)

    def get_initial_state(self, rng: PRNGKeyArray) -> CurriculumState[None]:
        return CurriculumState(level=jnp.array(self.min_level, dtype=jnp.float32), state=None)


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class EpisodeLengthCurriculumState:
    step_counter: Array
    ema_episode_length: Array


@attrs.define(frozen=True, kw_only=True)
class EpisodeLengthCurriculum(Curriculum[EpisodeLengthCurriculumState]):
    """Curriculum that updates the episode length."""

    num_levels: int = attrs.field(default=100, validator=attrs.validators.ge(1))
    increase_threshold: float = attrs.field(default=3.0, validator=attrs.validators.ge(0.0))
    decrease_threshold: float = attrs.field(default=3.0, validator=attrs.validators.ge(0.0))
    min_level_steps: int = attrs.field(default=1, validator=attrs.validators.ge(0))
    min_level: float = attrs.field(default=0.0, validator=attrs.validators.ge(0.0))
    ema_decay: float = attrs.field(default=0.9, validator=attrs.validators.ge(0.0))

    def __call__(
        self,
        trajectory: Trajectory,
        rewards: RewardState,
        training_state: xax.State,
        prev_state: CurriculumState[EpisodeLengthCurriculumState],
    ) -> CurriculumState[EpisodeLengthCurriculumState]:
        step_size = 1 / self.num_levels

        episode_length = trajectory.episode_length().mean()
        ema = self.ema_decay * prev_state.state.ema_episode_length + (1 - self.ema_decay) * episode_length

        steps = prev_state.state.step_counter
        level = prev_state.level
        can_step = steps == 0
        should_inc = (ema > self.increase_threshold) & can_step
        should_dec = (ema < self.decrease_threshold) & can_step
        next_steps = jnp.where(should_inc | should_dec, self.min_level_steps, jnp.maximum(steps - 1, 0))

        next_level = jnp.where(
            should_inc,
            level + step_size,
            jnp.where(should_dec, level - step_size, level),
        )
        next_level = jnp.clip(next_level, self.min_level, 1.0)
        next_steps = jnp.where(should_inc | should_dec, self.min_level_steps, next_steps)

        return CurriculumState(
            level=next_level,
            state=EpisodeLengthCurriculumState(
                step_counter=next_steps,
                ema_episode_length=ema,
            ),
        )

    def get_initial_state(self, rng: PRNGKeyArray) -> CurriculumState[EpisodeLengthCurriculumState]:
        return CurriculumState(
            level=jnp.array(self.min_level, dtype=jnp.float32),
            state=EpisodeLengthCurriculumState(
                step_counter=jnp.array(self.min_level_steps, dtype=jnp.int32),
                ema_episode_length=jnp.array(0.0, dtype=jnp.float32),
            ),
        )


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class DistanceFromOriginCurriculumState:
    step_counter: Array
    ema_distance: Array


@attrs.define(frozen=True, kw_only=True)
class DistanceFromOriginCurriculum(Curriculum[DistanceFromOriginCurriculumState]):
    """Curriculum that updates the distance from the origin based on thresholds."""

    num_levels: int = attrs.field(default=100, validator=attrs.validators.ge(1))
    increase_threshold: float = attrs.field(default=3.0, validator=attrs.validators.ge(0.0))
    decrease_threshold: float = attrs.field(default=3.0, validator=attrs.validators.ge(0.0))
    min_level_steps: int = attrs.field(default=1, validator=attrs.validators.ge(1))
    min_level: float = attrs.field(default=0.0, validator=attrs.validators.ge(0.0))
    ema_decay: float = attrs.field(default=0.9, validator=attrs.validators.ge(0.0))

    def __call__(
        self,
        trajectory: Trajectory,
        rewards: RewardState,
        training_state: xax.State,
        prev_state: CurriculumState[DistanceFromOriginCurriculumState],
    ) -> CurriculumState[DistanceFromOriginCurriculumState]:
        # Calculate current distance from origin
        distance = jnp.linalg.norm(trajectory.qpos[..., :3], axis=-1).max()
        ema = self.ema_decay * prev_state.state.ema_distance + (1 - self.ema_decay) * distance

        # Get current level and steps
        current_level = prev_state.level
        steps = jnp.maximum(prev_state.state.step_counter - 1, 0)

        # Update level based on thresholds
        new_level_if_enough_steps = jnp.where(
            ema > self.increase_threshold,
            jnp.minimum(current_level + 1.0 / self.num_levels, 1.0),
            jnp.where(
                ema < self.decrease_threshold,
                jnp.maximum(current_level - 1.0 / self.num_levels, 0.0),
                current_level,
            ),
        )

        new_level = jnp.where(steps == 0, new_level_if_enough_steps, current_level)

        # Reset steps if level changed
        steps = jnp.where(new_level != current_level, jnp.zeros_like(steps), steps)

        return CurriculumState(
            level=new_level,
            state=DistanceFromOriginCurriculumState(
                step_counter=steps,
                ema_distance=ema,
            ),
        )

    def get_initial_state(self, rng: PRNGKeyArray) -> CurriculumState[DistanceFromOriginCurriculumState]:
        return CurriculumState(
            level=jnp.array(self.min_level, dtype=jnp.float32),
            state=DistanceFromOriginCurriculumState(
                step_counter=jnp.array(self.min_level_steps, dtype=jnp.int32),
                ema_distance=jnp.array(0.0, dtype=jnp.float32),
            ),
        )


@attrs.define(frozen=True, kw_only=True)
class StepWhenSaturated(Curriculum[Array]):
    """Step the curriculum depending on how many deaths there are per episode.

    The logic here is that if there are fewer than `increase_threshold` deaths
    per episode on average, then we should increase the curriculum level.
    Similarly, if there are more than `decrease_threshold` deaths per episode
    on average, then we should decrease the curriculum level.

    We only allow the level to be changed every `min_level_steps` steps.
    """

    num_levels: int = attrs.field()
    increase_threshold: float = attrs.field()
    decrease_threshold: float = attrs.field()
    min_level_steps: int = attrs.field()
    min_level: float = attrs.field(default=0.0, validator=attrs.validators.ge(0.0))

    def __call__(
        self,
        trajectory: Trajectory,
        rewards: RewardState,
        training_state: xax.State,
        prev_state: CurriculumState[Array],
    ) -> CurriculumState[Array]:
        level, steps = prev_state.level, prev_state.state
        level, steps = jax.lax.cond(
            steps <= 0,
            lambda: self._step_level(level, trajectory),
            lambda: (level, steps - 1),
        )
        return CurriculumState(level=level, state=steps)

    def _step_level(self, level: Array, trajectory: Trajectory) -> tuple[Array, Array]:
        deaths = trajectory.done.sum(axis=-1).mean()
        should_increase = deaths < self.increase_threshold
        should_decrease = deaths > self.decrease_threshold
        delta = 1.0 / self.num_levels
        level = jnp.where(
            should_increase,
            level + delta,
            jnp.where(should_decrease, level - delta, level),
        )
        return jnp.clip(level, self.min_level, 1.0), jnp.array(self.min_level_steps, dtype=jnp.int32)

    def get_initial_state(self, rng: PRNGKeyArray) -> CurriculumState[Array]:
        return CurriculumState(
            level=jnp.array(self.min_level, dtype=jnp.float32),
            state=jnp.array(self.min_level_steps, dtype=jnp.int32),
        )


# scaffolding below: RLTask._rl_train_loop_step cut to what touches the curriculum state (a jitted
# outer step that scans single_step_fn over epochs_per_log_step and carries the curriculum state)
@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class _Carry:  # scaffolding: RLLoopCarry / env_states reduced to the curriculum state
    curriculum_state: CurriculumState


curriculum = EpisodeLengthCurriculum(num_levels=10, increase_threshold=5.0, decrease_threshold=1.0, min_level_steps=1)  # scaffolding: what get_curriculum returns


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
print(jax.typeof(carry.curriculum_state.state.ema_episode_length))  # scaffolding
_report({"jit(_rl_train_loop_step)"}, 6)  # scaffolding
