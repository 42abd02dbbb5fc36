# source: https://docs.jax.dev/en/latest/_autosummary/jax.numpy.delete.html
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: assume_unique_indices=True (static) lets jnp.delete compute a fixed output shape from traced indices; one compile for the call.
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


import jax  # scaffolding
import jax.numpy as jnp  # scaffolding

a = jnp.array([4, 5, 6, 7, 8, 9])
indices = jnp.array([0, 1, 3])
jnp.delete(a, indices)

jit_delete = jax.jit(jnp.delete, static_argnames=['assume_unique_indices'])
print(jit_delete(a, indices, assume_unique_indices=True))
_report({"jit(delete)"}, 1)  # scaffolding
