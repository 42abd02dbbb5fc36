# source: https://github.com/instadeepai/flashbax/commit/989976c272cba666277efc7038c27a54df2880df
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: after the commit the results are stacked with jnp.asarray and reduced with jnp.all, which traces, so the jitted can_sample compiles once and returns True.

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

import functools
from typing import Callable, Sequence, TypeVar

import chex
import jax
import jax.numpy as jnp
from chex import Numeric, dataclass
from jax import Array
from jax.tree_util import tree_map


# scaffolding: cut-down stand-ins for flashbax.buffers.trajectory_buffer (state, init, add, can_sample, buffer)
@dataclass(frozen=True)
class TrajectoryBufferState:  # scaffolding
    experience: chex.ArrayTree
    current_index: chex.Array
    is_full: chex.Array


@dataclass(frozen=True)
class TrajectoryBuffer:  # scaffolding
    init: Callable
    add: Callable
    sample: Callable
    can_sample: Callable


def make_trajectory_buffer(max_length_time_axis, min_length_time_axis, add_batch_size):  # scaffolding
    def init(experience):
        exp = tree_map(lambda x: jnp.zeros((add_batch_size, max_length_time_axis, *x.shape), x.dtype), experience)
        return TrajectoryBufferState(experience=exp, is_full=jnp.array(False, dtype=bool), current_index=jnp.array(0))

    def add(state, batch):
        seq_len = jax.tree_util.tree_leaves(batch)[0].shape[1]
        indices = (jnp.arange(seq_len) + state.current_index) % max_length_time_axis
        exp = tree_map(lambda e, b: e.at[:, indices].set(b), state.experience, batch)
        new_index = state.current_index + seq_len
        is_full = state.is_full | (new_index >= max_length_time_axis)
        return state.replace(experience=exp, current_index=new_index % max_length_time_axis, is_full=is_full)

    def can_sample(state):
        return state.is_full | (state.current_index >= min_length_time_axis)

    def sample(state, key):
        return state.experience

    return TrajectoryBuffer(init=init, add=add, sample=sample, can_sample=can_sample)


state_types = [TrajectoryBufferState]
StateTypes = TypeVar("StateTypes", bound=TrajectoryBufferState)
BufferTypes = TypeVar("BufferTypes", bound=TrajectoryBuffer)


# flashbax/buffers/mixer.py after the commit (docstrings cut; sample_mixer_fn left out)
@dataclass(frozen=True)
class Mixer:
    """Pure functions defining the mixer."""

    sample: Callable
    can_sample: Callable


def can_sample_mixer_fn(
    states: Sequence[StateTypes],
    can_sample_fns: Sequence[Callable[[StateTypes], Array]],
) -> Array:
    """Check if all buffers can sample."""
    each_can_sample = jnp.asarray(
        tree_map(
            lambda state, can_sample: can_sample(state),
            states,
            can_sample_fns,
            is_leaf=lambda leaf: type(leaf) in state_types,
        )
    )
    return jnp.all(each_can_sample)


def make_mixer(
    buffers: Sequence[BufferTypes],
    sample_batch_size: int,
    proportions: Sequence[Numeric],
) -> Mixer:
    """Create the mixer."""
    assert len(buffers) == len(
        proportions
    ), "Number of buffers and proportions must match"
    assert all(
        isinstance(b, type(buffers[0])) for b in buffers
    ), "All buffers must be of the same type"
    assert sample_batch_size > 0, "Sample batch size must be greater than 0"

    sample_fns = [b.sample for b in buffers]
    can_sample_fns = [b.can_sample for b in buffers]

    # Normalize proportions and calculate resulting integer batch sizes
    props_sum = sum(proportions)
    props_norm = [p / props_sum for p in proportions]
    prop_batch_sizes = [int(p * sample_batch_size) for p in props_norm]
    if sum(prop_batch_sizes) != sample_batch_size:
        # In case of rounding errors, add the remainder to the first buffer's proportion
        prop_batch_sizes[0] += sample_batch_size - sum(prop_batch_sizes)

    mixer_sample_fn = None  # scaffolding: functools.partial(sample_mixer_fn, ...) in the repo

    mixer_can_sample_fn = functools.partial(
        can_sample_mixer_fn,
        can_sample_fns=can_sample_fns,
    )

    return Mixer(
        sample=mixer_sample_fn,
        can_sample=mixer_can_sample_fn,
    )


# flashbax/buffers/mixer_test.py: test_mixed_buffer_does_not_smoke, cut down
fake_transition = {  # scaffolding
    "obs": jnp.array([0.0, 0.0]),
    "reward": jnp.array(0.0),
    "done": jnp.array(False),
    "next_obs": jnp.array([0.0, 0.0]),
}
buffers = []
buffer_states = []
for i in range(3):
    buffer = make_trajectory_buffer(max_length_time_axis=32 * (i + 1), min_length_time_axis=8, add_batch_size=4)  # scaffolding
    buffers.append(buffer)
    state = buffer.init(jax.tree_util.tree_map(lambda x, _i=i: jnp.ones_like(x) * _i, fake_transition))
    fake_add_data = jax.tree_util.tree_map(lambda x: jnp.broadcast_to(x, (4, 10, *x.shape)), fake_transition)  # scaffolding
    state = buffer.add(state, fake_add_data)
    buffer_states.append(state)

mixer = make_mixer(buffers, sample_batch_size=100, proportions=[0.2, 0.2, 0.6])
try:  # scaffolding
    can_sample = jax.jit(mixer.can_sample)(buffer_states)
    assert can_sample
    _report({"jit(can_sample_mixer_fn)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
