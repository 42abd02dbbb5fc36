# source: https://github.com/patemotter/jax-intro/blob/main/07_control_flow.ipynb
# expect: trace-time-error at line 32
# runtime: ERROR TracerBoolConversionError
# why: abs_value works eagerly but under jax.jit its Python if on the traced x raises TracerBoolConversionError.
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
import jax.lax as lax
import numpy as np

def abs_value(x):
    if x >= 0:    # Python if on a traced value
        return x
    else:
        return -x

# Works outside jit (Python evaluates the if normally)
print(f"Without jit: abs_value(3.0) = {abs_value(3.0)}")
print(f"Without jit: abs_value(-3.0) = {abs_value(-3.0)}")

# Fails under jit (x is a tracer, not a concrete value)
try:
    jax.jit(abs_value)(jnp.float32(3.0))
    _report({"jit(abs_value)"}, 1)  # scaffolding
except jax.errors.TracerBoolConversionError as e:
    print(f"ERROR {type(e).__name__}")  # scaffolding: the notebook prints the message
