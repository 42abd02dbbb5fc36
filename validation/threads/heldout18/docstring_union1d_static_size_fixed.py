# source: https://docs.jax.dev/en/latest/_autosummary/jax.numpy.union1d.html
# expect: none
# runtime: COMPILES 3 CALLS 3
# why: with a static size the output shape is known; each distinct static (size, fill_value) compiles once (3 compiles for 3 distinct combinations).
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

ar1 = jnp.array([1, 2, 3, 4])
ar2 = jnp.array([3, 4, 5, 6])
jnp.union1d(ar1, ar2)

jit_union1d = jax.jit(jnp.union1d, static_argnames=['size'])
print(jit_union1d(ar1, ar2, size=6))
print(jit_union1d(ar1, ar2, size=4))
print(jit_union1d(ar1, ar2, size=8, fill_value=0))
_report({"jit(union1d)"}, 3)  # scaffolding
