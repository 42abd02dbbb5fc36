# source: https://crackedaicode.com/problems/jax-tracer-leak-detection
# expect: trace-time-error at line 36
# runtime: ERROR TracerBoolConversionError
# why: clip_v2 loops over the indices and tests x[i] < 0 with a Python if; under jax.jit x[i] is traced, so the first comparison fails at trace time.

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
import jax
import jax.numpy as jnp


# ❌ Index-based loop is also a leak under jit
def clip_v2(x):
    for i in range(len(x)):
        if x[i] < 0:
            x = x.at[i].set(0)
    return x


x = jnp.array([-1.0, 2.0, -3.0])  # scaffolding
try:  # scaffolding
    jax.jit(clip_v2)(x)  # scaffolding
    _report({"jit(clip_v2)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
