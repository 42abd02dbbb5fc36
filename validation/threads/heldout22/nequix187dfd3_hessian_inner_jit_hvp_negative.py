# source: https://github.com/atomicarchitects/nequix/commit/187dfd3ee1b24398c45a0a88f706982b5335c70b
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: hessian_linearized wraps the linearized HVP in jax.jit inside a function the calculator calls through a fresh eqx.filter_jit wrapper each time; the inner jit is inlined and the filter_jit cache is shared, so three Hessians compile once.
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
from typing import NamedTuple

import jax
import jax.numpy as jnp
import equinox as eqx


def hessian_linearized(model, graph, batch_size=None):
    cell_per_edge = jnp.repeat(
        graph.globals["cell"],
        graph.n_edge,
        axis=0,
        total_repeat_length=graph.edges["shifts"].shape[0],
    )
    offsets = jnp.einsum("ij,ijk->ik", graph.edges["shifts"], cell_per_edge)

    def total_energy_fn(positions):
        r = positions[graph.senders] - positions[graph.receivers] + offsets
        node_energies = model.node_energies(
            r, graph.nodes["species"], graph.senders, graph.receivers
        )
        return jnp.sum(node_energies)

    pos = graph.nodes["positions"]
    _, hvp = jax.linearize(jax.grad(total_energy_fn), pos)
    hvp = jax.jit(hvp)
    basis = jnp.eye(pos.shape[0] * pos.shape[1]).reshape(-1, *pos.shape)
    return (
        jax.lax.map(hvp, basis, batch_size=batch_size)
        .reshape(pos.shape + pos.shape)  # (n, 3, n, 3)
        .swapaxes(1, 2)  # (n, n, 3, 3)
    )


class PairModel(eqx.Module):  # scaffolding: a Morse-like pair potential standing in for the nequix network
    depth: jax.Array
    width: jax.Array

    def node_energies(self, r, species, senders, receivers):
        d = jnp.sqrt(jnp.sum(r**2, axis=-1) + 1e-12)
        e_edge = self.depth * (1.0 - jnp.exp(-self.width * (d - 1.0))) ** 2
        return jax.ops.segment_sum(e_edge, senders, num_segments=species.shape[0])


class GraphsTuple(NamedTuple):  # scaffolding: jraph.GraphsTuple
    nodes: dict
    edges: dict
    receivers: jax.Array
    senders: jax.Array
    globals: dict
    n_node: jax.Array
    n_edge: jax.Array


def make_graph(n, key):  # scaffolding: a fully connected small cluster as a jraph-like graph
    senders, receivers = jnp.nonzero(~jnp.eye(n, dtype=bool), size=n * (n - 1))
    pos = jax.random.normal(key, (n, 3)) * 1.5
    return GraphsTuple(
        nodes={"positions": pos, "species": jnp.zeros(n, dtype=jnp.int32)},
        edges={"shifts": jnp.zeros((n * (n - 1), 3))},
        receivers=receivers,
        senders=senders,
        globals={"cell": jnp.eye(3)[None] * 10.0},
        n_node=jnp.array([n]),
        n_edge=jnp.array([n * (n - 1)]),
    )


model = PairModel(depth=jnp.float32(0.5), width=jnp.float32(1.2))  # scaffolding
for k in range(3):  # scaffolding: the ASE calculator asked for the Hessian of three configurations
    graph = make_graph(4, jax.random.PRNGKey(k))
    hessian = eqx.filter_jit(hessian_linearized)(model, graph)
_report({"jit(hessian_linearized)", "jit(hvp)", "jit(f_jvp)"}, 3)  # scaffolding
