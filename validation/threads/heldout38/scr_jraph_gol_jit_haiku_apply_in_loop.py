# source: https://github.com/google-deepmind/jraph/blob/51f5990104f7374492f8f3ea1cbc47feb411c69c/jraph/examples/game_of_life.py
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: The game-of-life loop calls jax.jit(net.apply)(params, cg) every generation, but net is a haiku Transformed namedtuple whose apply is one stored function object, so jit's cache is hit and the step compiles once.

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
import time
from typing import Any, NamedTuple

import haiku as hk
import jax
import jax.numpy as jnp
import numpy as np


class _Jraph:  # scaffolding: minimal stand-in for the jraph package (not installed)
    class GraphsTuple(NamedTuple):  # scaffolding
        nodes: Any  # scaffolding
        edges: Any  # scaffolding
        receivers: Any  # scaffolding
        senders: Any  # scaffolding
        globals: Any  # scaffolding
        n_node: Any  # scaffolding
        n_edge: Any  # scaffolding

    @staticmethod  # scaffolding
    def concatenated_args(fn):  # scaffolding
        return lambda *args: fn(jnp.concatenate(args, axis=-1))  # scaffolding

    @staticmethod  # scaffolding
    def InteractionNetwork(update_edge_fn, update_node_fn):  # scaffolding
        def net(g):  # scaffolding
            edges = update_edge_fn(g.edges, g.nodes[g.senders], g.nodes[g.receivers])  # scaffolding
            agg = jax.ops.segment_sum(edges, g.receivers, num_segments=g.nodes.shape[0])  # scaffolding
            return g._replace(nodes=update_node_fn(g.nodes, agg), edges=edges)  # scaffolding
        return net  # scaffolding


jraph = _Jraph  # scaffolding


def conway_mlp(x):
  """Implements a MLP representing Conway's game of life rules."""
  w = jnp.array([[0.0, -1.0], [0.0, 1.0], [0.0, 1.0],
                 [0, -1.0], [1.0, 1.0], [1.0, 1.0]])
  b = jnp.array([3.5, -3.5, -1.5, 1.5, -2.5, -3.5])
  h = jnp.maximum(jnp.dot(w, x) + b, 0.)
  w = jnp.array([[2.0, -4.0, 2.0, -4.0, 2.0, -4.0]])
  b = jnp.array([-4.0])
  y = jnp.maximum(jnp.dot(w, h) + b, 0.0)
  return y


def conway_graph(size) -> jraph.GraphsTuple:
  """Returns a graph representing the game field of conway's game of life."""
  # Creates nodes: each node represents a cell in the game.
  n_node = size**2
  nodes = np.zeros((n_node, 1))
  node_indices = jnp.arange(n_node)
  # Creates edges, senders and receivers:
  # the senders represent the connections to the 8 neighboring fields.
  n_edge = 8 * n_node
  edges = jnp.zeros((n_edge, 1))
  senders = jnp.vstack(
      [node_indices - size - 1, node_indices - size, node_indices - size + 1,
       node_indices - 1, node_indices + 1,
       node_indices + size - 1, node_indices + size, node_indices + size + 1])
  senders = senders.T.reshape(-1)
  senders = (senders + size**2) % size**2
  receivers = jnp.repeat(node_indices, 8)
  # Adds a glider to the game
  nodes[0, 0] = 1.0
  nodes[1, 0] = 1.0
  nodes[2, 0] = 1.0
  nodes[2 + size, 0] = 1.0
  nodes[1 + 2 * size, 0] = 1.0
  return jraph.GraphsTuple(n_node=jnp.array([n_node]),
                           n_edge=jnp.array([n_edge]),
                           nodes=jnp.asarray(nodes),
                           edges=edges,
                           globals=None,
                           senders=senders,
                           receivers=receivers)


def display_graph(graph: jraph.GraphsTuple):
  """Prints the nodes of the graph representing Conway's game of life."""
  size = int(np.sqrt(np.sum(graph.n_node)))

  def _display_node(node):
    if node == 1.0:
      return 'x'
    else:
      return ' '

  nodes = graph.nodes.copy()
  output = '\n'.join(
      ''.join(_display_node(nodes[i * size + j][0])
              for j in range(size))
      for i in range(size))
  print('-' * size + '\n' + output)


def main(_):

  def net_fn(graph: jraph.GraphsTuple):
    unf = jraph.concatenated_args(conway_mlp)
    net = jraph.InteractionNetwork(
        update_edge_fn=lambda e, n_s, n_r: n_s,
        update_node_fn=jax.vmap(unf))
    return net(graph)

  net = hk.without_apply_rng(hk.transform(net_fn))

  cg = conway_graph(size=20)
  params = net.init(jax.random.PRNGKey(42), cg)
  for _ in range(4):  # scaffolding: 100 generations in the example
    cg = jax.jit(net.apply)(params, cg)
    display_graph(cg)

main(None)  # scaffolding: app.run(main)
_report({"jit(apply_fn)"}, 4)  # scaffolding
