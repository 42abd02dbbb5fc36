# source: https://crackedaicode.com/problems/jax-tracer-leak-detection
# expect: trace-time-error at line 36
# runtime: ERROR TracerBoolConversionError
# why: clip_v1 branches with a Python if on x[0] < 0, a traced value once the function is jitted, so tracing fails with a boolean conversion of a tracer.

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


# ❌ Tracer leak — Python `if` on a traced value
def clip_v1(x):
    result = x
    if x[0] < 0:  # error: bool conversion of tracer
        result = result.at[0].set(0)
    return result


x = jnp.array([-1.0, 2.0, -3.0])  # scaffolding
try:  # scaffolding
    jax.jit(clip_v1)(x)  # scaffolding
    _report({"jit(clip_v1)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
