# source: https://github.com/hr0nix/dejax/commit/eb6df08bf82a14a6803def74075d8fec01d9de91
# expect: trace-time-error at line 365
# runtime: ERROR TypeError
# why: before the commit ClusteredReplayBufferState holds the cluster ReplayBuffer (a chex dataclass of plain functions) and clustering_fn as pytree leaves, so passing the buffer state to a jitted function fails on a function-typed argument.
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


from typing import Callable, Any, Tuple
import types  # scaffolding: SimpleNamespace stand-ins for modules that are not installed or were cut

import chex
import jax
import jax.lax
import jax.numpy as jnp
import jax.random
import jax.tree_util
import jax.experimental.checkify as checkify

jnp.alltrue = jnp.all  # scaffolding: jnp.alltrue was removed from jax; the 2022 code uses it


ReplayBufferState = Any
Item = chex.ArrayTree
ItemBatch = chex.ArrayTree
IntScalar = chex.Array
ItemUpdateFn = Callable[[Item], Item]


@chex.dataclass(frozen=True)
class ReplayBuffer:
    init_fn: Callable[[Item], ReplayBufferState]
    size_fn: Callable[[ReplayBufferState], IntScalar]
    add_fn: Callable[[ReplayBufferState, Item], ReplayBufferState]
    add_batch_fn: Callable[[ReplayBufferState, ItemBatch], ReplayBufferState]
    sample_fn: Callable[[ReplayBufferState, chex.PRNGKey, int], ItemBatch]
    update_fn: Callable[[ReplayBufferState, ItemUpdateFn], ReplayBufferState]


def make_default_add_batch_fn(add_fn):
    def add_batch_fn(state: ReplayBufferState, item_batch: ItemBatch) -> ReplayBufferState:
        def scan_body(state: ReplayBufferState, item: Item) -> Tuple[ReplayBufferState, None]:
            state = add_fn(state, item)
            return state, None

        state, _ = jax.lax.scan(f=scan_body, init=state, xs=item_batch)
        return state

    return add_batch_fn


def tile_over_axis(tensor, axis, size):
    tensor = jnp.expand_dims(tensor, axis)
    tensor = jnp.repeat(tensor, size, axis=axis)
    return tensor


def type_to_dtype(t):
    if t == int:
        return jnp.int32
    elif t == float:
        return jnp.float32
    elif t == bool:
        return jnp.bool_
    else:
        raise ValueError(f"Unsupported type: {t}")


def scalar_to_jax(scalar):
    chex.assert_scalar(scalar)
    return jnp.asarray(scalar, dtype=type_to_dtype(type(scalar)))


def assert_tree_is_batch_of_tree(tree_batch, tree):
    def cmp(tensor_batch, tensor):
        return tensor_batch.shape[1:] == tensor.shape

    def error(tensor_batch, tensor):
        return f"{tensor_batch.shape[1:]} != {tensor.shape}"

    chex.assert_trees_all_equal_comparator(cmp, error, tree_batch, tree)


def set_pytree_batch_item(tree_batch, index, tree):
    assert_tree_is_batch_of_tree(tree_batch, tree)

    return jax.tree_util.tree_map(
        lambda tb, t: tb.at[index].set(t),
        tree_batch, tree,
    )


def get_pytree_batch_item(tree_batch, index):
    return jax.tree_util.tree_map(lambda tb: tb[index], tree_batch)


def get_pytree_axis_dim(tree, axis):
    leaves = jax.tree_util.tree_leaves(tree)
    assert len(leaves) > 0
    axis_dim = leaves[0].shape[axis]
    assert all(leave.shape[axis] == axis_dim for leave in leaves)
    return axis_dim


def concatenate_trees(*trees, axis=0):
    return jax.tree_util.tree_map(lambda *t: jnp.concatenate(t, axis=axis), *trees)


def stack_trees(*trees, axis=0):
    return jax.tree_util.tree_map(lambda *t: jnp.stack(t, axis=axis), *trees)


utils = types.SimpleNamespace(**{k: v for k, v in dict(globals()).items() if callable(v)})  # scaffolding: the dejax.utils module


IntScalar = chex.Array
BoolScalar = chex.Array
Item = chex.ArrayTree
ItemBatch = chex.ArrayTree


@chex.dataclass(frozen=True)
class CircularBuffer:
    data: ItemBatch
    head: IntScalar
    tail: IntScalar
    full: BoolScalar


def init(item_prototype: Item, max_size: int) -> CircularBuffer:
    chex.assert_tree_has_only_ndarrays(item_prototype)

    data = jax.tree_util.tree_map(
        lambda t: utils.tile_over_axis(t, axis=0, size=max_size), item_prototype)
    return CircularBuffer(
        data=data,
        head=utils.scalar_to_jax(0),
        tail=utils.scalar_to_jax(0),
        full=utils.scalar_to_jax(False),
    )


def max_size(buffer: CircularBuffer) -> int:
    return utils.get_pytree_axis_dim(buffer.data, axis=0)


def size(buffer: CircularBuffer) -> IntScalar:
    return jax.lax.select(
        buffer.full,
        on_true=max_size(buffer),
        on_false=jax.lax.select(
            buffer.head >= buffer.tail,
            on_true=buffer.head - buffer.tail,
            on_false=max_size(buffer) - (buffer.tail - buffer.head),
        ),
    )


def push(buffer: CircularBuffer, item: Item) -> CircularBuffer:
    chex.assert_tree_has_only_ndarrays(item)

    insert_pos = buffer.head
    new_data = utils.set_pytree_batch_item(buffer.data, insert_pos, item)
    new_head = (insert_pos + 1) % max_size(buffer)
    new_tail = jax.lax.select(
        buffer.full,
        on_true=new_head,
        on_false=buffer.tail,
    )
    new_full = new_head == new_tail

    return buffer.replace(data=new_data, head=new_head, tail=new_tail, full=new_full)


def pop(buffer: CircularBuffer) -> (Item, CircularBuffer):
    checkify.check(size(buffer) > 0, 'There are no items in storage')

    remove_pos = buffer.tail
    popped_item = utils.get_pytree_batch_item(buffer.data, remove_pos)
    new_tail = (remove_pos + 1) % max_size(buffer)
    new_full = utils.scalar_to_jax(False)

    return popped_item, buffer.replace(tail=new_tail, full=new_full)


def get_at_index(buffer: CircularBuffer, index: IntScalar) -> Item:
    chex.assert_shape(index, ())
    checkify.check(jnp.alltrue(jnp.logical_and(index >= 0, index < size(buffer))), 'Index out of bounds')

    index = (buffer.tail + index) % max_size(buffer)
    return utils.get_pytree_batch_item(buffer.data, index)


circular_buffer = types.SimpleNamespace(CircularBuffer=CircularBuffer, ItemBatch=ItemBatch, init=init, max_size=max_size, size=size, push=push, pop=pop, get_at_index=get_at_index)  # scaffolding: the dejax.circular_buffer module


@chex.dataclass(frozen=True)
class UniformReplayBufferState:
    storage: circular_buffer.CircularBuffer


def uniform_sample(
        buffer: circular_buffer.CircularBuffer, rng: chex.PRNGKey, batch_size: int
) -> circular_buffer.ItemBatch:
    checkify.check(circular_buffer.size(buffer) > 0, 'Cannot sample from an empty buffer')

    sample_pos = jax.random.randint(rng, minval=0, maxval=circular_buffer.size(buffer), shape=(batch_size,))
    get_at_index_batch = jax.vmap(circular_buffer.get_at_index, in_axes=(None, 0))
    return get_at_index_batch(buffer, sample_pos)


def uniform_replay(max_size: int) -> ReplayBuffer:
    def init_fn(item_prototype: Item) -> UniformReplayBufferState:
        return UniformReplayBufferState(storage=circular_buffer.init(item_prototype, max_size))

    def size_fn(state: UniformReplayBufferState) -> IntScalar:
        return circular_buffer.size(state.storage)

    def add_fn(state: UniformReplayBufferState, item: Item) -> UniformReplayBufferState:
        return state.replace(storage=circular_buffer.push(state.storage, item))

    def sample_fn(state: UniformReplayBufferState, rng: chex.PRNGKey, batch_size: int) -> ItemBatch:
        return uniform_sample(state.storage, rng, batch_size)

    def update_fn(state: UniformReplayBufferState, item_update_fn: ItemUpdateFn) -> UniformReplayBufferState:
        # TODO: there might be a faster way to make updates that does not affect all items in the buffer
        batch_update_fn = jax.vmap(item_update_fn)
        updated_data = batch_update_fn(state.storage.data)
        return state.replace(storage=state.storage.replace(data=updated_data))

    return ReplayBuffer(
        init_fn=init_fn,
        size_fn=size_fn,
        add_fn=add_fn,
        # TODO: it should be possible to make an optimized version of add_batch_fn for this buffer type
        add_batch_fn=make_default_add_batch_fn(add_fn),
        sample_fn=sample_fn,
        update_fn=update_fn
    )


@chex.dataclass(frozen=True)
class ClusteredReplayBufferState:
    cluster_buffer: ReplayBuffer
    cluster_state_batch: ReplayBufferState
    clustering_fn: Callable[[Item], IntScalar]
    distribution_power: float


def clustered_replay(
    num_clusters: int,
    cluster_buffer: ReplayBuffer,
    clustering_fn: Callable[[Item], IntScalar],
    distribution_power: float = 0.0,
) -> ReplayBuffer:
    def init_fn(item_prototype: Item) -> ClusteredReplayBufferState:
        cluster_states = [cluster_buffer.init_fn(item_prototype) for _ in range(num_clusters)]
        cluster_state_batch = utils.stack_trees(*cluster_states)
        return ClusteredReplayBufferState(
            cluster_buffer=cluster_buffer,
            cluster_state_batch=cluster_state_batch,
            clustering_fn=clustering_fn,
            distribution_power=distribution_power,
        )

    def size_fn(state: ClusteredReplayBufferState) -> IntScalar:
        return jnp.sum(jax.vmap(cluster_buffer.size_fn)(state.cluster_state_batch))

    def add_fn(state: ClusteredReplayBufferState, item: Item) -> ClusteredReplayBufferState:
        cluster_state_batch = state.cluster_state_batch
        cluster_index = state.clustering_fn(item)
        item_cluster = utils.get_pytree_batch_item(cluster_state_batch, cluster_index)
        item_cluster = state.cluster_buffer.add_fn(item_cluster, item)
        cluster_state_batch = utils.set_pytree_batch_item(cluster_state_batch, cluster_index, item_cluster)
        return state.replace(cluster_state_batch=cluster_state_batch)

    def sample_fn(state: ClusteredReplayBufferState, rng: chex.PRNGKey, batch_size: int) -> ItemBatch:
        cluster_sizes = jax.vmap(state.cluster_buffer.size_fn)(state.cluster_state_batch)
        cluster_weights = jnp.where(
            cluster_sizes > 0, jnp.power(cluster_sizes, state.distribution_power), cluster_sizes)

        cluster_fractions = cluster_weights / jnp.sum(cluster_weights)
        num_samples = jnp.round(batch_size * cluster_fractions).astype(jnp.int32)
        checkify.check(jnp.sum(num_samples) == batch_size, 'Number of samples does not match batch size')

        rng, cluster_selection_key = jax.random.split(rng)
        cluster_for_sample = jax.random.categorical(
            cluster_selection_key, logits=jnp.log(cluster_weights), shape=(batch_size,))
        rng_batch = jax.random.split(rng, batch_size)

        def sample_item(cluster_index: IntScalar, rng: chex.PRNGKey) -> Item:
            chex.assert_shape(cluster_index, ())

            cluster_state = utils.get_pytree_batch_item(state.cluster_state_batch, cluster_index)
            sample = state.cluster_buffer.sample_fn(cluster_state, rng, 1)

            chex.assert_tree_shape_prefix(sample, (1,))
            return utils.get_pytree_batch_item(sample, 0)

        return jax.vmap(sample_item)(cluster_for_sample, rng_batch)

    def update_fn(state: ClusteredReplayBufferState, item_update_fn: ItemUpdateFn) -> ClusteredReplayBufferState:
        def cluster_update_fn(cluster_state: ReplayBufferState) -> ReplayBufferState:
            return state.cluster_buffer.update_fn(cluster_state, item_update_fn)
        batch_cluster_update_fn = jax.vmap(cluster_update_fn)
        updated_cluster_state_batch = batch_cluster_update_fn(state.cluster_state_batch)
        return state.replace(cluster_state_batch=updated_cluster_state_batch)

    return ReplayBuffer(
        init_fn=init_fn,
        size_fn=size_fn,
        add_fn=add_fn,
        add_batch_fn=make_default_add_batch_fn(add_fn),
        sample_fn=sample_fn,
        update_fn=update_fn
    )


def make_item(x):
    return scalar_to_jax(x)


def make_buffer():
    def clustering_fn(item):
        return jax.lax.select(item >= 2, 1, 0)

    cluster_buffer = uniform_replay(max_size=3)
    buffer = clustered_replay(2, cluster_buffer, clustering_fn)

    return buffer


def test_clustered_replay_jit_state_as_arg():
    batch_size = 10000
    buffer = make_buffer()

    @jax.jit
    @checkify.checkify
    def do_something_with_buffer(buffer_state):
        for item in [0, 1, 2]:
            buffer_state = buffer.add_fn(buffer_state, make_item(item))
        size = buffer.size_fn(buffer_state)
        large_batch = buffer.sample_fn(buffer_state, jax.random.PRNGKey(1337), batch_size)
        return size, large_batch

    buffer_state = buffer.init_fn(make_item(0))
    err, (size, large_batch) = do_something_with_buffer(buffer_state)
    err.throw()
    assert size == 3
    assert large_batch.shape == (batch_size,)


try:  # scaffolding
    test_clustered_replay_jit_state_as_arg()  # scaffolding: the test the commit adds (tests/test_clustered_replay.py)
    _report({"jit(checked_fun)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
