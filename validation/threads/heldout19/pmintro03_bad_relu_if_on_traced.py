# source: https://github.com/patemotter/jax-intro/blob/main/03_jit.ipynb
# expect: trace-time-error at line 32
# runtime: ERROR TracerBoolConversionError
# why: bad_relu branches with a Python if on the traced x, so jax.jit(bad_relu)(jnp.array(1.0)) raises TracerBoolConversionError.
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

import jax
import jax.numpy as jnp
import numpy as np

# This FAILS — the if/else depends on the VALUE of x, which is unknown at trace time
def bad_relu(x):
    if x > 0:       # Python if on a traced value → TracerError
        return x
    else:
        return 0.0

try:
    jax.jit(bad_relu)(jnp.array(1.0))
    _report({"jit(bad_relu)"}, 1)  # scaffolding
except jax.errors.TracerBoolConversionError as e:
    print(f"ERROR {type(e).__name__}")  # scaffolding: the notebook prints the message
