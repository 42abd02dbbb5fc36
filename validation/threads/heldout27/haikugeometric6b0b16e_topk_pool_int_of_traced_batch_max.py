# source: https://github.com/alexOarga/haiku-geometric/commit/6b0b16e975a9131af7b36eeeb19fd5ebf47674f6
# expect: trace-time-error at line 165
# runtime: ERROR ConcretizationTypeError
# why: inside the jitted haiku apply, batch is traced, so TopKPooling's int(jnp.max(batch) + 1) for the number of graphs raises ConcretizationTypeError; topk_indexes repeats the pattern (int(batch.max() + 1), range(nodes_per_batch[b])).
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


import jax
import jax.numpy as jnp
import haiku as hk
from typing import Optional, Union
from functools import partial
from jax import vmap
# from haiku_geometric.utils import scatter, batch_softmax  # scaffolding: inlined below


# ---- haiku_geometric/utils/scatter.py ----
def _scatter(input, dim, index, src, reduce):
    dnums = jax.lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
                                            scatter_dims_to_operand_dims=(0,))

    _scatterf = partial(reduce, dimension_numbers=dnums)
    vmap_inner = partial(vmap, in_axes=(0, 0, 0), out_axes=0)

    for _ in range(len(input.shape) - 1):
        _scatterf = vmap_inner(_scatterf)
    def swap(x):
        if x.ndim == 1:
            return x
        return jnp.swapaxes(x, dim, -1)
    #swap = lambda x: jnp.swapaxes(x, dim, -1)
    input, index, src = list(map(swap, (input, index, src)))
    return swap(_scatterf(input, jnp.expand_dims(index, axis=-1), src))


def scatter(input, dim, index, src, reduce=None):
    # This is AranKomat's (https://github.com/AranKomat) implementation of scatter
    # It is intented to work as pytorch's scatter function.

    if reduce is None:
        _reduce = jax.lax.scatter
    elif reduce == "sum":
        _reduce = jax.lax.scatter_add
    elif reduce == "multiply":
        _reduce = jax.lax.scatter_mul
    elif reduce == "max":
        _reduce = jax.lax.scatter_max

    return _scatter(input, dim, index, src, _reduce)


# ---- haiku_geometric/utils/utils.py (batch_softmax; the module's jraph import is not needed here) ----
def batch_softmax(x: jnp.ndarray,
                batch: jnp.ndarray,
                num_segments):
    r"""Batched soft max."""
    batch_max = jax.ops.segment_max(
        data=jax.lax.stop_gradient(x),
        segment_ids=batch,
    num_segments=num_segments)
    batch_max = batch_max[batch]
    x = jnp.exp(x - batch_max)
    batch_sum = jax.ops.segment_sum(
        data=x,
        segment_ids=batch,
    num_segments=num_segments) + 1e-16
    batch_sum = batch_sum[batch]
    return x / batch_sum

# ---- haiku_geometric/nn/pool/topk_pool.py ----
MIN_INF = -65504.0


def topk_indexes(score, ratio, batch):

    nodes_per_batch = jax.ops.segment_sum(
        data=jnp.ones(score.shape[0], dtype=jnp.int32),
        segment_ids=batch)

    cum_num_nodes = jnp.concatenate(
        [jnp.zeros(1),
         jnp.cumsum(nodes_per_batch, axis=0)[:-1]], axis=0, dtype=jnp.int32)

    num_batch = int(batch.max() + 1)
    max_num_nodes = jnp.max(nodes_per_batch)
    score_batch_matrix = jnp.full((num_batch, max_num_nodes), MIN_INF)
    index = [(b, i) for b in range(num_batch) for i in range(nodes_per_batch[b])]
    index = tuple(jnp.array(index).T)
    # TODO: compare performance with indexing a flat array
    score_batch_matrix = score_batch_matrix.at[index].set(score, unique_indices=True)
    perm = jnp.argsort(-score_batch_matrix, axis=-1)  # trick for descending order
    if ratio >= 1:
        k = jnp.full((num_batch,), int(ratio))
        k = jnp.minimum(k, nodes_per_batch)
    else:
        k = jnp.ceil(ratio * nodes_per_batch).astype(jnp.int32)

    perm = perm + cum_num_nodes[:, None]
    index = [(b, i) for b in range(num_batch) for i in range(k[b])]
    index = tuple(jnp.array(index).T)
    perm = perm[index]
    perm = perm.reshape(-1)
    return perm


class TopKPooling(hk.Module):
    r""" Topk pooling operator from the `"Graph U-Nets"
    <https://arxiv.org/abs/1905.05178>`_ and "Towards Sparse Hierarchical Graph Classifiers"
     <https://arxiv.org/abs/1811.01287>`_ paper.

    Args:
        in_channels (int): Dimension of input node features.
        ratio: (Union[int, float], optinal): Ratio of nodes to keep.
            If int, the number of nodes to keep.
            (default: :obj:`0.5`)
        multiplier (float, optional): Multiplier to scale the features after pooling.
            (default: :obj:`1.`)
    """
    def __init__(self,
                 in_channels: int,
                 ratio: Union[int, float] = 0.5,
                 multiplier: float = 1.,
                 ):
        #w_init = hk.initializers.TruncatedNormal(1. / jnp.sqrt(j)) # TODO: initialize with 1/sqrt(j)
        super().__init__()
        p_init = hk.initializers.TruncatedNormal()
        self.p = hk.get_parameter("p", shape=[in_channels,], init=p_init)
        self.ratio = ratio
        self.multiplier = multiplier


    def __call__(self,
                 x: jnp.ndarray,
                 senders: jnp.ndarray,
                 receivers: jnp.ndarray,
                 edge_attr: Optional[jnp.ndarray] = None,
                 batch: Optional[jnp.ndarray] = None
         ):
        """"""
        num_nodes = x.shape[0]
        if batch is None:
            batch = jnp.zeros((num_nodes,), dtype=jnp.int32)
        x = x.reshape((-1, 1)) if x.ndim == 1 else x
        score = x * self.p
        score = jnp.sum(score, axis=-1)
        score = batch_softmax(score, batch, int(jnp.max(batch) + 1))

        perm = topk_indexes(score, self.ratio, batch)
        score = score[perm]

        x = x[perm] * score.reshape(-1, 1)
        x = self.multiplier * x if self.multiplier != 1 else x

        # filter adjacency matrix
        cluster_index = jnp.arange(perm.shape[0])
        mask = jnp.full((num_nodes,), -1)
        mask = mask.at[perm].set(cluster_index)
        senders, receivers = mask[senders], mask[receivers]
        mask = (senders >= 0) & (receivers >= 0)
        senders, receivers = senders[mask], receivers[mask]
        edge_attr = edge_attr[mask] if edge_attr is not None else None

        # pool new graphs by creating batches
        if batch is not None:
            out = jnp.arange(perm.shape[0])
            batch = scatter(out, 0, cluster_index, batch[perm])

        return x, senders, receivers, edge_attr, batch


# ---- scaffolding: two graphs (4 + 3 nodes) pooled inside a jitted haiku forward ----
def forward(x, senders, receivers, batch):  # scaffolding
    pool = TopKPooling(in_channels=3, ratio=0.5)  # scaffolding
    x_out, s_out, r_out, e_out, b_out = pool(x, senders, receivers, batch=batch)  # scaffolding
    return x_out, b_out  # scaffolding


net = hk.without_apply_rng(hk.transform(forward))  # scaffolding
x = jax.random.normal(jax.random.PRNGKey(0), (7, 3))  # scaffolding
senders = jnp.array([0, 1, 2, 3, 4, 5, 6, 4])  # scaffolding
receivers = jnp.array([1, 2, 3, 0, 5, 6, 4, 6])  # scaffolding
batch = jnp.array([0, 0, 0, 0, 1, 1, 1])  # scaffolding
apply = jax.jit(net.apply)  # scaffolding

try:  # scaffolding
    params = net.init(jax.random.PRNGKey(1), x, senders, receivers, batch)  # scaffolding: init runs eagerly
    for k in range(3):  # scaffolding: three forward passes
        out, new_batch = apply(params, x + k, senders, receivers, batch)  # scaffolding
    print(out.shape, new_batch)  # scaffolding
    _report({"jit(apply_fn)"}, 3)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
