# source: https://github.com/M2Lschool/tutorials2023/blob/864a4504facac6bb123492b229b91202a2bc9eab/4_gnn/notebooks/4_2_gat/4_2_gat.ipynb
# expect: jit-in-loop-or-body at line 113
# runtime: COMPILES 31 CALLS 31
# why: train_ogbn_arxiv defines the @jax.jit update (and prediction_loss) inside the epoch loop, so each of the 31 epochs compiles a new update function.

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
# --- cell 6: Imports (jraph, haiku, flax, networkx, matplotlib not available here) ---
import functools
import jax
import jax.numpy as jnp
import jax.tree_util as tree
import optax
import numpy as onp
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple


# --- scaffolding: minimal stand-ins for the jraph / haiku names the cells use ---
class GraphsTuple(NamedTuple):  # scaffolding: jraph.GraphsTuple
  nodes: Any
  edges: Any
  receivers: Any
  senders: Any
  globals: Any
  n_node: Any
  n_edge: Any


class jraph:  # scaffolding
  GraphsTuple = GraphsTuple


class _Transformed(NamedTuple):  # scaffolding: hk.Transformed
  init: Callable
  apply: Callable


class hk:  # scaffolding
  Params = Any
  Transformed = _Transformed


def _linear_network(n_in, n_out):  # scaffolding: a linear node map in place of the GAT network
  def init(key, graph):
    return {'w': jax.random.normal(key, (n_in, n_out)) * 0.1}

  def apply(params, graph):
    return graph._replace(nodes=graph.nodes @ params['w'])

  return _Transformed(init, apply)

# --- cells 28-30 (scaffolding: a random graph stands in for ogbn-arxiv) ---
_N, _F = 600, 16  # scaffolding
_r = onp.random.default_rng(14)  # scaffolding
senders = jnp.array(_r.integers(0, _N, 3000), dtype=jnp.int32)  # scaffolding
receivers = jnp.array(_r.integers(0, _N, 3000), dtype=jnp.int32)  # scaffolding
node_features = jnp.array(_r.normal(size=(_N, _F)), dtype=jnp.float32)  # scaffolding
labels = jnp.array(_r.integers(0, 40, (_N, 1)), dtype=jnp.int32)  # scaffolding
n_node = jnp.array([_N])
n_edge = jnp.array([len(receivers)])
global_context = jnp.array([[1]], dtype=jnp.int32)
graph = jraph.GraphsTuple(nodes=node_features, senders=senders, receivers=receivers, n_node=n_node, n_edge=n_edge, globals=global_context,edges= None)
rand_seed = 14

# --- cell 34 ---
split_idx = {"train": onp.arange(0, 400), "valid": onp.arange(400, 500), "test": onp.arange(500, 600)}  # scaffolding: dataset.get_idx_split()
train_idx = split_idx["train"]
val_idx = split_idx["valid"]
test_idx = split_idx["test"]

train_labels = jnp.squeeze(labels[train_idx])
val_labels = jnp.squeeze(labels[val_idx])
test_labels = jnp.squeeze(labels[test_idx])

# --- cell 42 ---
n_classes = 40
epochs = 30
lr = 0.01
one_hot_train_labels = jax.nn.one_hot(train_labels, n_classes)
print(one_hot_train_labels.shape)

# --- cell 43 ---
def train_ogbn_arxiv(network, params, opt_state):
  for epoch in range(epochs+1):
      @jax.jit
      def prediction_loss(params) -> jnp.ndarray:
          out_graph = network.apply(params, graph)
          res=  out_graph.nodes[train_idx]
          res1=optax.softmax_cross_entropy( res, one_hot_train_labels).mean()
          return res1

      @jax.jit
      def update(params, opt_state) -> Tuple[hk.Params, Any]:
          loss_val, grad = jax.value_and_grad(prediction_loss)(params)
          updates, opt_state = opt_update(grad, opt_state)
          return optax.apply_updates(params, updates), loss_val, opt_state

      # compute the loss only for the batch and update the parameters
      params, loss_value, opt_state = update(params, opt_state)

      if epoch%5==0:
          out_graph = network.apply(params,graph)
          acc = onp.sum(onp.argmax(out_graph.nodes[train_idx], axis=1) == train_labels)/len(train_labels)

          out_graph = network.apply(params,graph)
          val_acc = onp.sum(onp.argmax(out_graph.nodes[val_idx], axis=1) == val_labels)/len(val_labels)
          print(f"epoch {epoch} loss {jnp.mean(loss_value)} train acc {acc} val acc {val_acc} ")


model_arch = "gat" # choices: ("gcn", "gat")
network = _linear_network(_F, n_classes)  # scaffolding: hk.without_apply_rng(hk.transform(gat_fn)) in the notebook

params = network.init(jax.random.PRNGKey(rand_seed), graph)
opt_init, opt_update = optax.adam(lr)
opt_state = opt_init(params)

train_ogbn_arxiv(network, params, opt_state)
_report({"jit(update)", "jit(prediction_loss)"}, 31)  # scaffolding: epochs + 1 update calls
