# source: https://docs.jax.dev/en/latest/_autosummary/jax.numpy.isscalar.html
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: jax.jit(np.isscalar)(1.0) returns False because the Python scalar becomes a 0-d array at the JIT boundary, while jnp.isscalar returns True under jit; each jitted function compiles once.
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
import numpy as np  # scaffolding

print(np.isscalar(1.0))
print(jax.jit(np.isscalar)(1.0))

print(jnp.isscalar(1.0))
print(jax.jit(jnp.isscalar)(1.0))
_report({"jit(isscalar)"}, 2)  # scaffolding
