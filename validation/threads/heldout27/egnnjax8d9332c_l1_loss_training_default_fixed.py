# source: https://github.com/Ioana-Simion/egnn-jax/commit/8d9332c699cf5ecdf372dc9182f6fb7f8bcb291e
# expect: none
# runtime: COMPILES 1 CALLS 6
# why: the commit no longer binds training=True into the partial, so l1_loss uses its Python default inside the trace and update compiles once for six training steps.
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


# models/egnn_jax.py, qm9/utils.py (GraphTransform), utils/utils.py (qm9/egnn branch of get_model) and main_qm9.py
import os
import jax
# import jraph  # scaffolding: jraph is not installed; stand-in below
import json
# import torch  # scaffolding: torch is not installed; stand-in below
import optax
import jax.numpy as jnp
from functools import partial
from typing import Dict, Callable, Tuple, Iterable
import numpy as np  # scaffolding
from types import SimpleNamespace  # scaffolding

class jraph:  # scaffolding: the jraph names used here, with jraph's semantics (the last graph holds the padding)
    from typing import NamedTuple as _NT  # scaffolding
    class GraphsTuple(_NT):  # scaffolding
        nodes: object  # scaffolding
        edges: object  # scaffolding
        receivers: object  # scaffolding
        senders: object  # scaffolding
        globals: object  # scaffolding
        n_node: object  # scaffolding
        n_edge: object  # scaffolding

    @staticmethod  # scaffolding
    def get_node_padding_mask(graph):  # scaffolding
        n = graph.nodes.shape[0]  # scaffolding
        return jnp.arange(n) < n - graph.n_node[-1]  # scaffolding

    @staticmethod  # scaffolding
    def get_edge_padding_mask(graph):  # scaffolding
        e = graph.senders.shape[0]  # scaffolding
        return jnp.arange(e) < e - graph.n_edge[-1]  # scaffolding


class _T:  # scaffolding: a torch tensor stand-in with .numpy()
    def __init__(self, a):  # scaffolding
        self.a = a  # scaffolding

    def numpy(self):  # scaffolding
        return self.a  # scaffolding

    def __getitem__(self, idx):  # scaffolding
        return _T(self.a[idx])  # scaffolding


torch = SimpleNamespace(is_tensor=lambda v: isinstance(v, _T))  # scaffolding


# ---- models/egnn_jax.py ----
import flax.linen as nn


def xavier_init(gain):
    def init(key, shape, dtype):
        bound = gain * jnp.sqrt(6.0 / (shape[0] + shape[1]))
        return jax.random.uniform(key, shape, dtype, -bound, bound)

    return init


class E_GCL(nn.Module):
    """
    E(n) Equivariant Message Passing Layer
    """

    hidden_nf: int
    act_fn: callable
    residual: bool

    def edge_model(self, edge_index, h, coord, edge_attr):

        row, col = edge_index
        source, target = h[row], h[col]
        radial = self.coord2radial(edge_index, coord)

        edge_mlp = nn.Sequential(
            [
                nn.Dense(self.hidden_nf),
                self.act_fn,
                nn.Dense(self.hidden_nf),
                self.act_fn,
            ]
        )

        out = jnp.concatenate([source, target, radial, edge_attr], axis=1)

        return edge_mlp(out)

    def node_model(self, edge_index, edge_attr, x):
        row, col = edge_index
        agg = unsorted_segment_sum(edge_attr, row, num_segments=x.shape[0])

        node_mlp = nn.Sequential(
            [nn.Dense(self.hidden_nf), self.act_fn, nn.Dense(self.hidden_nf)]
        )

        agg = jnp.concatenate([x, agg], axis=1)
        out = node_mlp(agg)

        # TODO do we need to add x to out? to update it
        return out, agg

    def coord_model(self, edge_index, edge_feat, coord):
        row, col = edge_index
        coord_mlp = nn.Sequential(
            [
                nn.Dense(self.hidden_nf),
                self.act_fn,
                nn.Dense(1, kernel_init=xavier_init(gain=0.001)),
            ]
        )

        coord_out = coord_mlp(edge_feat)
        trans = (coord[row] - coord[col]) * coord_out

        agg = unsorted_segment_mean(trans, row, num_segments=coord.shape[0])

        coord = coord + agg
        return coord

    def coord2radial(self, edge_index, coord):
        senders, receivers = edge_index
        coord_i, coord_j = coord[senders], coord[receivers]
        distance = jnp.sum((coord_i - coord_j) ** 2, axis=1, keepdims=True)
        return distance

    @nn.compact
    def __call__(self, h, edge_index, coord, edge_attr=None):
        m_ij = self.edge_model(edge_index, h, coord, edge_attr)
        h, agg = self.node_model(edge_index, m_ij, h)
        coord = self.coord_model(edge_index, m_ij, coord)
        return h, coord, m_ij


class EGNN(nn.Module):
    hidden_nf: int
    out_node_nf: int
    act_fn: callable = nn.silu  # default activation function
    n_layers: int = 4
    residual: bool = True

    @nn.compact
    def __call__(self, h, x, edges, edge_attr):
        h = nn.Dense(self.hidden_nf)(h)
        for i in range(self.n_layers):
            h, x, _ = E_GCL(self.hidden_nf, act_fn=self.act_fn, residual=self.residual)(
                h, edges, x, edge_attr=edge_attr
            )  # name=f"gcl_{i}"
        h = nn.Dense(self.out_node_nf)(h)
        return h, x


def unsorted_segment_sum(data, segment_ids, num_segments):
    return jax.ops.segment_sum(data, segment_ids, num_segments)


def unsorted_segment_mean(data, segment_ids, num_segments):
    seg_sum = jax.ops.segment_sum(data, segment_ids, num_segments)
    seg_count = jax.ops.segment_sum(jnp.ones_like(data), segment_ids, num_segments)
    return seg_sum / seg_count


def get_edges(n_nodes):
    rows, cols = [], []
    for i in range(n_nodes):
        for j in range(n_nodes):
            if i != j:
                rows.append(i)
                cols.append(j)

    edges = [rows, cols]

    return edges


def get_edges_batch(n_nodes, batch_size):
    edges = get_edges(n_nodes)
    edge_attr = jnp.ones(len(edges[0]) * batch_size, dtype=jnp.float32).reshape(-1, 1)
    edges = [
        jnp.array(edges[0]).astype(jnp.int32),
        jnp.array(edges[1]).astype(jnp.int32),
    ]
    if batch_size == 1:
        return edges, edge_attr
    elif batch_size > 1:
        rows, cols = [], []
        for i in range(batch_size):
            rows.append(edges[0] + n_nodes * i)
            cols.append(edges[1] + n_nodes * i)
        edges = [jnp.concatenate(rows), jnp.concatenate(cols)]

    return edges, edge_attr



# ---- qm9/utils.py ----
def GraphTransform(batch_size: int) -> Callable:
    """
    Build a function that converts torch geometric DataBatch into jraph.GraphsTuple.
    Returns:
    h : the one hot encoding of atomic numbers (dataset.x)
    pos : Atoms positions (dataset.pos)
    edge_indices : Edge indices (dataset.edge_index)
    edge_attr: Edge attributes (dataset.edge_attr)
    targets: Target properties (dataset.y)
    """

    def _to_jax(data):
        jax_data = {key: jnp.array(value.numpy()) for key, value in data.items() if torch.is_tensor(value)}
        
        nodes = jax_data['x']
        pos = jax_data['pos']
        edge_indices = jax_data['edge_index']
        edge_attr = jax_data['edge_attr'] if 'edge_attr' in jax_data else None
        targets = jax_data['y']
        
        return (nodes, pos, edge_indices, edge_attr), targets
    
    return _to_jax


# ---- utils/utils.py (the qm9 / egnn branch of get_model) ----
def get_model(args):
    """Return model based on name."""
    if args.dataset == "qm9":
        num_out = 19
    else:
        raise ValueError(f"Do not recognize dataset {args.dataset}.")

    if args.model_name == "egnn":
        model = EGNN(
            hidden_nf=args.num_hidden,
            out_node_nf=num_out,
            n_layers=args.num_layers,
        )

    else:
        raise ValueError(f"Model type {args.model_name} not recognized.")

    return model


class _Batch(dict):  # scaffolding: a torch_geometric batch stand-in (items() and attribute access)
    __getattr__ = dict.__getitem__  # scaffolding


def get_loaders(args):  # scaffolding: random QM9-like batches (4 molecules of 5 atoms, fully connected)
    rs = np.random.RandomState(0)  # scaffolding
    n, bs = 5, args.batch_size  # scaffolding
    ei = np.array([(i, j) for b in range(bs) for i in range(b * n, b * n + n) for j in range(b * n, b * n + n) if i != j]).T.astype(np.int32)  # scaffolding
    batches = [_Batch(x=_T(rs.rand(bs * n, 11).astype(np.float32)), pos=_T(rs.randn(bs * n, 3).astype(np.float32)),  # scaffolding
                      edge_index=_T(ei), edge_attr=_T(rs.rand(ei.shape[1], 4).astype(np.float32)),  # scaffolding
                      y=_T(rs.randn(bs, 19).astype(np.float32))) for _ in range(3)]  # scaffolding
    return batches, None, None  # scaffolding


# ---- main_qm9.py ----
# Seeding
jax_seed = jax.random.PRNGKey(42)

@partial(jax.jit, static_argnames=["loss_fn", "opt_update"])
def update(
    params,
    feat,
    target: jnp.ndarray,
    opt_state: optax.OptState,
    loss_fn: Callable,
    opt_update: Callable,
):
    loss, grads = jax.value_and_grad(loss_fn)(params, feat, target)
    updates, opt_state = opt_update(grads, opt_state, params)
    return loss, optax.apply_updates(params, updates), opt_state


def get_property_index(property_name):
    property_dict = {
        'alpha': 0,
        'gap': 1,
        'homo': 2,
        'lumo': 3,
        'mu': 4,
        'Cv': 5,
        'G': 6,
        'H': 7,
        'r2': 8,
        'U': 9,
        'U0': 10,
        'zpve': 11
    }
    return property_dict[property_name]


def create_graph(h, x, edges, edge_attr):
    
    n_node = jnp.array([h.shape[0]])
    n_edge = jnp.array([edges.shape[1]])

    graphs_tuple = jraph.GraphsTuple(
            nodes=h,
            edges=edge_attr,
            senders=edges[0],
            receivers=edges[1],
            globals=None,
            n_node=n_node,
            n_edge=n_edge
        )
    
    return graphs_tuple


def create_padding_mask(h, x, edges, edge_attr):
    # num_nodes = h.shape[0]
    # num_edges = edges.shape[1]
    graph = create_graph(h,x,edges,edge_attr)

    node_mask = jraph.get_node_padding_mask(graph)
    edge_mask = jraph.get_edge_padding_mask(graph)
    
    return node_mask, edge_mask


def compute_mean_mad(dataloader, property_idx):
    values = []
    for batch in dataloader:
        values.append(jnp.array(batch.y[:, property_idx].numpy()))
    values = jnp.concatenate(values)
    meann = jnp.mean(values)
    ma = jnp.abs(values - meann)
    mad = jnp.mean(ma)
    return meann, mad


def normalize(pred, meann, mad):
    return (pred - meann) / mad


def denormalize(pred, meann, mad):
    return mad * pred + meann


@partial(jax.jit, static_argnames=["model_fn", "task"])
def l1_loss(params, feat, target, model_fn, meann, mad, training=True, task="graph"):
    h, x, edges, edge_attr = feat
    pred = model_fn(params, h, x, edges, edge_attr)[0]

    node_mask, edge_mask = create_padding_mask(h, x, edges, edge_attr)
    
    if training:
        # Normalize prediction and target for training
        pred = normalize(pred, meann, mad)
        target = normalize(target, meann, mad)
    else:
        # only for eval
        pred = denormalize(pred, meann, mad)

    target_padded = jnp.pad(target, ((0, h.shape[0] - target.shape[0]), (0, 0)), mode='constant')
    
    # Apply the mask to the predictions and targets
    pred = pred * node_mask[:, None]
    target_padded = target_padded * node_mask[:, None]

    assert pred.shape == target_padded.shape, f"Shape mismatch: pred.shape = {pred.shape}, target_padded.shape = {target_padded.shape}"
    
    return jnp.mean(jnp.abs(pred - target_padded))


def evaluate(*args, **kwargs):  # scaffolding: evaluate() is cut (only referenced by eval_fn; its call passes meann, mad
    raise NotImplementedError  # scaffolding: positionally next to the partial keywords, a plain TypeError, and training=False)


def train_model(args, graph_transform, model_name, checkpoint_path):
    # Generate model
    model = get_model(args)

    # Get loaders
    train_loader, val_loader, test_loader = get_loaders(args)

    property_idx = get_property_index(args.property)
    meann, mad = compute_mean_mad(train_loader, property_idx)
    print(f"Mean: {meann}, MAD: {mad}")

    init_feat, _ = graph_transform(next(iter(train_loader)))
    
    opt_init, opt_update = optax.adamw(learning_rate=args.lr, weight_decay=args.weight_decay)
    params = model.init(jax_seed, *init_feat)
    opt_state = opt_init(params)

    loss_fn = partial(l1_loss, model_fn=model.apply, meann=meann, mad=mad, task=args.task)
    update_fn = partial(update, loss_fn=loss_fn, opt_update=opt_update)
    eval_fn = partial(evaluate, loss_fn=loss_fn, graph_transform=graph_transform, meann=meann, mad=mad, task=args.task)

    train_scores = []
    val_scores = []
    test_loss, best_val_epoch = 0, 0

    for epoch in range(args.epochs):  # scaffolding: tqdm dropped
        ############
        # Training #
        ############
        train_loss = 0.0
        for batch in train_loader:  # scaffolding: tqdm dropped
            feat, target = graph_transform(batch)
            loss, params, opt_state = update_fn(params=params, feat=feat, target=target, opt_state=opt_state)
            train_loss += loss
            _calls[0] += 1  # scaffolding
        train_loss /= len(train_loader)
        train_scores.append(train_loss)

        # scaffolding: the validation block, the final report, the results json and the plot are cut (evaluate calls loss_fn with meann, mad positionally, a plain TypeError)
    return train_scores  # scaffolding


_calls = [0]  # scaffolding
parsed_args = SimpleNamespace(epochs=2, batch_size=4, lr=5e-4, weight_decay=1e-8, val_freq=10, dataset="qm9",  # scaffolding: argparse defaults, smaller sizes
                              property="homo", num_hidden=16, num_layers=2, model_name="egnn", task="graph")  # scaffolding
try:  # scaffolding
    graph_transform = GraphTransform(parsed_args.batch_size)  # scaffolding: as __main__ builds it
    train_model(parsed_args, graph_transform, "egnn", "assets")  # scaffolding
    _report({"jit(update)"}, _calls[0])  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
