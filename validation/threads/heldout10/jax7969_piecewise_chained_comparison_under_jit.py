# source: https://github.com/jax-ml/jax/issues/7969
# expect: trace-time-error at line 32
# runtime: ERROR TracerBoolConversionError
# why: the chained comparison 0<x<1 is Python's (0<x) and (x<1), which calls bool() on the traced comparison inside the jitted f and raises TracerBoolConversionError; eagerly x is concrete and f works.

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

def f(x):
    return jax.numpy.piecewise(x, [x<0,0<x<1], [-x, x])

f_jit=jax.jit(f)

print(f(0.5)) # 0.5
try:  # scaffolding
    f_jit(0.5) # Error
    _report({"jit(f)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
