# source: https://docs.jax.dev/en/latest/_autosummary/jax.numpy.bincount.html
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: length is passed as a static argument, so the output shape of jnp.bincount is fixed under jax.jit; one compile for the call.
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

x = jnp.array([1, 1, 2, 3, 3, 3])
jnp.bincount(x)

weights = jnp.array([1, 2, 3, 4, 5, 6])
jnp.bincount(x, weights)

jit_bincount = jax.jit(jnp.bincount, static_argnames=['length'])
print(jit_bincount(x, length=5))  # scaffolding: print
_report({"jit(bincount)"}, 1)  # scaffolding
