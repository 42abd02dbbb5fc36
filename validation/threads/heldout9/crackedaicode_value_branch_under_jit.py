# source: https://crackedaicode.com/problems/jax-tracing-shape-vs-value
# expect: trace-time-error at line 35
# runtime: ERROR TracerBoolConversionError
# why: g branches with a Python if on x[0] > 0, a value of the traced argument, so jit(g) raises TracerBoolConversionError.

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
import jax.numpy as jnp
from jax import lax, jit


# ❌ BREAKS under jit — branching on a runtime value
def g(x):
    if x[0] > 0:
        return x.sum(axis=-1)  # scaffolding: body cut off in the stored page
    else:
        return x.mean(axis=-1)  # scaffolding


try:  # scaffolding
    jit(g)(jnp.array([1.0, 2.0, 3.0]))  # scaffolding
    _report({"jit(g)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
