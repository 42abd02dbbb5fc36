# source: https://github.com/ml-jku/DIffUCO/issues/13
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the energy classes jit their methods with static_argnums=(0,), i.e. a static self; the thread asks whether that is unsafe, and the maintainer answers that no attribute read in the jitted methods is changed after construction. With self hashed by identity and never mutated, repeated energy evaluations on same-shaped graphs reuse one compilation and return current results.

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
from abc import ABC, abstractmethod
from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp


class GraphsTuple(NamedTuple):  # scaffolding: stand-in for jraph.GraphsTuple
    nodes: jnp.ndarray
    senders: jnp.ndarray
    receivers: jnp.ndarray
    n_node: jnp.ndarray


class BaseEnergyClass(ABC):

    def __init__(self, config):
        self.n_bernoulli_features = config["n_bernoulli_features"]
        self.vmap_calculate_Energy_per_node = jax.vmap(self.calculate_Energy_per_node, in_axes=(None, 0, None))
        pass

    @abstractmethod
    def calculate_Energy(self):
        raise ValueError("not implemented")

    @partial(jax.jit, static_argnums=(0,))
    def calculate_Energy_per_node(self, H_graph, bins, node_graph_idx):
        Energy, _, HB_per_graph = self.calculate_Energy(H_graph, bins, node_graph_idx)
        return Energy, HB_per_graph


class MDSEnergyClass(BaseEnergyClass):

    def __init__(self, config):
        super().__init__(config)
        pass

    @partial(jax.jit, static_argnums=(0,))
    def calculate_Energy(self, H_graph, bins, node_gr_idx, A = 1., B = 1.2):
        n_graph = H_graph.n_node.shape[0]
        nodes = H_graph.nodes
        total_num_nodes = jax.tree_util.tree_leaves(nodes)[0].shape[0]

        raveled_bins = jnp.reshape(bins, (bins.shape[0], 1))
        Energy_messages = jnp.log1p(-raveled_bins[H_graph.senders])

        HA_per_node = raveled_bins
        HB_per_node = B * jnp.exp(
            (jax.ops.segment_sum(Energy_messages, H_graph.receivers, total_num_nodes) + jnp.log1p(-raveled_bins)))
        HA_per_graph = jax.ops.segment_sum(HA_per_node, node_gr_idx, n_graph)
        HB_per_graph = jax.ops.segment_sum(HB_per_node, node_gr_idx, n_graph)

        Energy = HA_per_graph + HB_per_graph
        return Energy, HB_per_node, HB_per_graph


energy = MDSEnergyClass({"n_bernoulli_features": 2})
H_graph = GraphsTuple(  # scaffolding: two 3-node graphs with both edge directions
    nodes=jnp.zeros((6, 1)),
    senders=jnp.array([0, 1, 1, 2, 3, 4, 4, 5]),
    receivers=jnp.array([1, 0, 2, 1, 4, 3, 5, 4]),
    n_node=jnp.array([3, 3]),
)
node_gr_idx = jnp.array([0, 0, 0, 1, 1, 1])
key = jax.random.PRNGKey(0)  # scaffolding
for step in range(3):  # scaffolding: three evaluations with new samples
    key, subkey = jax.random.split(key)
    bins = jax.random.bernoulli(subkey, 0.5, (6,)).astype(jnp.float32)
    Energy, HB_per_node, HB_per_graph = energy.calculate_Energy(H_graph, bins, node_gr_idx)
_report({"jit(calculate_Energy)"}, 3)  # scaffolding
