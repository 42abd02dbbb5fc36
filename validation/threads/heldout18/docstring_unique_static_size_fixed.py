# source: https://docs.jax.dev/en/latest/_autosummary/jax.numpy.unique.html
# expect: none
# runtime: COMPILES 4 CALLS 4
# why: with size passed as a static argument the output shape is known; each distinct (size, fill_value) compiles once (4 compiles for 4 distinct static combinations).
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

x = jnp.array([3, 4, 1, 3, 1])
jnp.unique(x)

jit_unique = jax.jit(jnp.unique, static_argnames=['size'])
print(jit_unique(x, size=3))
print(jit_unique(x, size=2))
print(jit_unique(x, size=5))
print(jit_unique(x, size=5, fill_value=0))
_report({"jit(unique)"}, 4)  # scaffolding
