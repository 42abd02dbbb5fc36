# source: https://github.com/Ioana-Simion/egnn-jax/commit/825412fd03e57f84d711aafccec91b0076ac987d
# expect: trace-time-error at line 141; jit-in-loop-or-body at line 301
# runtime: ERROR TypeError
# why: before the commit max_num_nodes is not in update's or l1_loss's static_argnames, so it is traced and EGNN's h.reshape(-1, n_nodes, hidden_nf) gets a traced size and raises TypeError; the jax.clear_caches() after every batch (removed later) would also recompile update each step.
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


# models/egnn_jax.py, qm9/utils.py (TransformDLBatches), utils/utils.py (get_model, get_property_index) and main_qm9.py
import os
import jax
# import jraph  # scaffolding: jraph is not installed; only create_graph/create_padding_mask (left out, unused in training) need it
import json
import optax
import argparse
import jax.numpy as jnp
from functools import partial
from typing import Callable
import gc
import numpy as np  # scaffolding: for the stand-in loader
from types import SimpleNamespace  # scaffolding: stand-in for the argparse namespace
import flax.linen as nn


# ---- models/egnn_jax.py ----
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
        #edge_attr of shape bs * max_num_edges, dim
        row, col = edge_index
        source, target = h[row], h[col] # bs*max_num_edges, dim | bs*max_num_edges, dim
        radial = self.coord2radial(edge_index, coord) # bs*max_num_edges, 1

        edge_mlp = nn.Sequential(
            [
                nn.Dense(self.hidden_nf),
                self.act_fn,
                nn.Dense(self.hidden_nf),
                self.act_fn,
            ]
        )

        out = jnp.concatenate([source, target, radial, edge_attr], axis=1)

        return edge_mlp(out) # bs*max_num_edges, hidden_nf

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

        coord_out = coord_mlp(edge_feat) # bs*max_num_edges, 1
        trans = (coord[row] - coord[col]) * coord_out # bs*max_num_edges, 3

        agg = unsorted_segment_mean(trans, row, num_segments=coord.shape[0]) # bs*max_num_nodes, 3; nodes, not edges!!

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
    def __call__(self, h, x, edges, edge_attr, node_mask, n_nodes):
        h = nn.Dense(self.hidden_nf)(h)
        for i in range(self.n_layers):
            h, x, _ = E_GCL(self.hidden_nf, act_fn=self.act_fn, residual=self.residual)(
                h, edges, x, edge_attr=edge_attr
            )  # name=f"gcl_{i}"
        h = h * node_mask[:, None]
        h = h.reshape(-1, n_nodes, self.hidden_nf)
        h = jnp.sum(h, axis=1)
        h = nn.Dense(self.out_node_nf)(h)
        return h, x


def unsorted_segment_sum(data, segment_ids, num_segments):
    return jax.ops.segment_sum(data, segment_ids, num_segments)


def unsorted_segment_mean(data, segment_ids, num_segments):
    seg_sum = jax.ops.segment_sum(data, segment_ids, num_segments)
    seg_count = jax.ops.segment_sum(jnp.ones_like(data), segment_ids, num_segments)
    return seg_sum / seg_count


# ---- qm9/utils.py ----
def TransformDLBatches(property_idx):
    """
    Build a function that converts torch geometric DataBatch into jraph.GraphsTuple.
    Args:
    property_idx: Index of the property to predict.
    
    Returns:
    h : the one hot encoding of atomic numbers (dataset.x)
    pos : Atoms positions (dataset.pos)
    edge_indices : Edge indices (dataset.edge_index)
    edge_attr: Edge attributes (dataset.edge_attr)
    targets: Selected target property (dataset.y[:, property_idx])
    """
    def _to_jax(data):
        
        data = (jnp.array(x.numpy()) for x in data)
        nodes, edge_attr, edge_index, pos, targets = data
    
        node_mask = (nodes.sum(axis=1) != 0).astype(jnp.float32)
        targets = targets[:, property_idx]  # Select property to optimize for
        targets = targets.reshape(-1,1)

        return (nodes, pos, edge_index, edge_attr, node_mask), targets
    
    return _to_jax


# ---- utils/utils.py (the qm9 / egnn branch of get_model) ----
def get_model(args):
    """Return model based on name."""
    if args.dataset == "qm9":
        num_out = 1
    else:
        raise ValueError(f"Do not recognize dataset {args.dataset}.")

    model = EGNN(
        hidden_nf=args.num_hidden,
        out_node_nf=num_out,
        n_layers=args.num_layers,
    )
    return model


# ---- stand-ins for the torch_geometric QM9 loaders (scaffolding) ----
class _T:  # scaffolding: a torch tensor stand-in with .numpy()
    def __init__(self, a):  # scaffolding
        self.a = a  # scaffolding

    def numpy(self):  # scaffolding
        return self.a  # scaffolding


def _make_loader(n_batches, bs, max_num_nodes, max_num_edges, seed):  # scaffolding: padded QM9-like batches as the collate_fn builds them
    rs = np.random.RandomState(seed)  # scaffolding
    batches = []  # scaffolding
    for _ in range(n_batches):  # scaffolding
        x = rs.rand(bs * max_num_nodes, 11).astype(np.float32)  # scaffolding
        edge_attr = rs.rand(bs * max_num_edges, 4).astype(np.float32)  # scaffolding
        edge_index = rs.randint(0, bs * max_num_nodes, size=(2, bs * max_num_edges)).astype(np.int32)  # scaffolding
        pos = rs.randn(bs * max_num_nodes, 3).astype(np.float32)  # scaffolding
        y = rs.randn(bs, 19).astype(np.float32)  # scaffolding
        batches.append(tuple(_T(a) for a in (x, edge_attr, edge_index, pos, y)))  # scaffolding
    return batches  # scaffolding


def get_loaders_and_statistics(args):  # scaffolding: stand-in returning what the real one returns
    max_num_nodes, max_num_edges = 5, 8  # scaffolding
    train_loader = _make_loader(4, args.batch_size, max_num_nodes, max_num_edges, 0)  # scaffolding
    return train_loader, None, None, jnp.array(0.1), jnp.array(1.2), max_num_nodes, max_num_edges  # scaffolding


def get_property_index(property_name):  # scaffolding: utils.utils.get_property_index, cut to 'homo'
    return {"homo": 2}[property_name]  # scaffolding


# ---- main_qm9.py ----
# Seeding
jax_seed = jax.random.PRNGKey(42)

@partial(jax.jit, static_argnames=["loss_fn", "opt_update"])
def update(params, x, edge_attr, edge_index, pos, node_mask, max_num_nodes, target, opt_state, loss_fn, opt_update):
    #using jax grad only instead of value and grad
    grads = jax.grad(loss_fn)(params, x, edge_attr, edge_index, pos, node_mask, max_num_nodes, target)
    loss = loss_fn(params, x, edge_attr, edge_index, pos, node_mask, max_num_nodes, target)
    updates, opt_state = opt_update(grads, opt_state, params)
    return loss, optax.apply_updates(params, updates), opt_state


@partial(jax.jit, static_argnames=["model_fn", "task", "training"])
def l1_loss(params, h, edge_attr, edge_index, pos, node_mask, max_num_nodes, 
            target, model_fn, meann, mad, training=True, task="graph"):
    pred = model_fn(params, h, pos, edge_index, edge_attr, node_mask, max_num_nodes)[0]
    #target = normalize(target, meann, mad) if training else target
    #pred = normalize(pred, meann, mad) if training else pred

    #target_padded = jnp.pad(target, ((0, h.shape[0] - target.shape[0]), (0, 0)), mode='constant')
    #pred = pred * node_mask[:, None]
    #target_padded = target_padded * node_mask[:, None]

    assert pred.shape == target.shape, f"Shape mismatch: pred.shape = {pred.shape}, target_padded.shape = {target.shape}"
    return jnp.mean(jnp.abs(pred - target))


def train_model(args, model, graph_transform, model_name, checkpoint_path):
    (
        train_loader, 
        val_loader, 
        test_loader, 
        meann, 
        mad, 
        max_num_nodes, 
        max_num_edges
    ) = get_loaders_and_statistics(args)

    property_idx = get_property_index(args.property)
    graph_transform_fn = graph_transform(property_idx)

    mad = jnp.maximum(mad, 1e-6) #to not divide by zero
    print(f"Mean: {meann}, MAD: {mad}")

    init_feat, _ = graph_transform_fn(next(iter(train_loader)))
    
    opt_init, opt_update = optax.adamw(learning_rate=args.lr, weight_decay=args.weight_decay)
    params = model.init(jax_seed, *init_feat, max_num_nodes)
    opt_state = opt_init(params)

    loss_fn = partial(l1_loss, model_fn=model.apply, meann=meann, mad=mad, task=args.task)
    update_fn = partial(update, loss_fn=loss_fn, opt_update=opt_update)

    train_scores = []

    for epoch in range(args.epochs):
        train_loss = 0.0
        for batch in train_loader:  # scaffolding: tqdm(...) wrapper dropped
            feat, target = graph_transform_fn(batch)
            x, pos, edge_index, edge_attr, node_mask = feat
            #node_mask = create_padding_mask(h, x, edges, edge_attr)
            loss, params, opt_state = update_fn(params, x, edge_attr, edge_index, pos, node_mask, max_num_nodes, target=target, opt_state=opt_state)
            train_loss += loss.item()
            _calls[0] += 1  # scaffolding: count update calls

            # Manually trigger garbage collection
            gc.collect()
            jax.clear_caches()

        train_loss /= len(train_loader)
        train_scores.append(float(jax.device_get(train_loss)))
        # scaffolding: writer.add_scalar, the validation/checkpoint block, the results json and the plot are cut (eval_fn is called without max_num_nodes at this commit)
    return train_scores


_calls = [0]  # scaffolding
parsed_args = SimpleNamespace(epochs=2, batch_size=4, lr=5e-4, weight_decay=1e-8, dataset="qm9", property="homo",  # scaffolding: the argparse defaults, smaller sizes
                              num_hidden=16, num_layers=2, model_name="egnn", task="node")  # scaffolding: main sets task = "node"
graph_transform = TransformDLBatches

try:  # scaffolding
    model = get_model(parsed_args)
    train_model(parsed_args, model, graph_transform, "test", "assets")
    _report({"jit(update)"}, _calls[0])  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
