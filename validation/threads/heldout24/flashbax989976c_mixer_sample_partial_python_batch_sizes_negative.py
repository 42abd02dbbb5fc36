# source: https://github.com/instadeepai/flashbax/commit/989976c272cba666277efc7038c27a54df2880df
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the jitted mixer.sample is a functools.partial that binds a Python list of int batch sizes and the buffers' sample functions; they are closed over, not traced, so the slices are static and jit(sample_mixer_fn) compiles once for 3 calls.

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

    def sample(state, key):  # 64 sequences of length 4 (sample_batch_size=64, sample_sequence_length=4)
        idx = jax.random.randint(key, (64,), 0, add_batch_size)
        return TrajectoryBufferSample(experience=tree_map(lambda x: x[idx, :4], state.experience))

    return TrajectoryBuffer(init=init, add=add, sample=sample, can_sample=can_sample)


@dataclass(frozen=True)
class TrajectoryBufferSample:  # scaffolding
    experience: chex.ArrayTree


sample_types = [TrajectoryBufferSample]
SampleTypes = TypeVar("SampleTypes", bound=TrajectoryBufferSample)
state_types = [TrajectoryBufferState]
StateTypes = TypeVar("StateTypes", bound=TrajectoryBufferState)
BufferTypes = TypeVar("BufferTypes", bound=TrajectoryBuffer)


# flashbax/buffers/mixer.py after the commit (docstrings cut)
@dataclass(frozen=True)
class Mixer:
    """Pure functions defining the mixer."""

    sample: Callable
    can_sample: Callable


def _batch_slicer(
    sample: SampleTypes,
    batch_start: int,
    batch_end: int,
) -> SampleTypes:
    """Simple utility function to slice a sample along the batch axis."""
    return tree_map(lambda x: x[batch_start:batch_end, ...], sample)


def sample_mixer_fn(
    states: Sequence[StateTypes],
    key: chex.PRNGKey,
    prop_batch_sizes: Sequence[int],
    sample_fns: Sequence[Callable[[StateTypes, chex.PRNGKey], SampleTypes]],
) -> SampleTypes:
    """Perform mixed sampling from provided buffer states, according to provided proportions."""
    keys = jax.random.split(
        key, len(states)
    )  # Split the key for each buffer sampling operation

    # We first sample from each buffer, and get a list of samples
    samples_array = tree_map(
        lambda state, sample, key_in: sample(state, key_in),
        states,
        sample_fns,
        list(keys),
        is_leaf=lambda leaf: type(leaf) in state_types,
    )

    # We then slice the samples according to the proportions
    prop_batch_samples_array = tree_map(
        lambda x, p: _batch_slicer(x, 0, p),
        samples_array,
        prop_batch_sizes,
        is_leaf=lambda leaf: type(leaf) in sample_types,
    )

    # Concatenate the samples along the batch axis
    joint_sample = tree_map(
        lambda *x: jnp.concatenate(x, axis=0),
        *prop_batch_samples_array,
    )

    return joint_sample


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

    mixer_sample_fn = functools.partial(
        sample_mixer_fn,
        prop_batch_sizes=prop_batch_sizes,
        sample_fns=sample_fns,
    )

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
rng_key = jax.random.PRNGKey(0)  # scaffolding
can_sample = jax.jit(mixer.can_sample)(buffer_states)
assert can_sample
sample_jit = jax.jit(mixer.sample)  # scaffolding: the test calls jax.jit(mixer.sample)(buffer_states, rng_key)
for _ in range(3):  # scaffolding: sample a few times
    rng_key, sample_key = jax.random.split(rng_key)  # scaffolding
    samples = sample_jit(buffer_states, sample_key)
print(samples.experience["obs"].shape)  # scaffolding
_report({"jit(sample_mixer_fn)"}, 3)  # scaffolding
