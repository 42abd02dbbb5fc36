# source: https://github.com/NVIDIA/nvalchemi-toolkit-ops/issues/92
# expect: trace-time-error at line 43
# runtime: ERROR ConcretizationTypeError
# why: build() is jitted with cutoff as a traced argument, but the neighbor-list builder turns cutoff into a Python float while tracing, so the call raises ConcretizationTypeError.

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
import jax, jax.numpy as jnp


def batch_cell_list(positions, cutoff, cell, pbc, batch_ptr, max_neighbors, max_total_cells):  # scaffolding: stand-in for nvalchemiops.jax.neighbors.batch_cell_list
    cutoff = float(cutoff)  # scaffolding: the coercion the issue describes
    d = positions[:, None, :] - positions[None, :, :]
    r = jnp.sqrt(jnp.sum(d * d, axis=-1))
    return (r < cutoff) & ~jnp.eye(positions.shape[0], dtype=bool)


pos = jnp.zeros((3, 3), jnp.float32)
cell = (jnp.eye(3, dtype=jnp.float32) * 10.0)[None]
batch_ptr = jnp.array([0, 3], jnp.int32)

@jax.jit
def build(cutoff):
    return batch_cell_list(pos, cutoff, cell=cell, pbc=jnp.ones((1, 3), bool),
                           batch_ptr=batch_ptr, max_neighbors=8, max_total_cells=64)

try:  # scaffolding
    build(jnp.asarray(5.0, jnp.float32))
    print("no error")  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
