# source: https://github.com/jax-ml/jax/issues/196
# expect: trace-time-error at line 33
# runtime: ERROR TracerBoolConversionError
# why: jit abstracts x to ShapedArray(int32[]), so a Python test like 'if x < 0' cannot be decided while tracing and raises TracerBoolConversionError.
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
from jax import jit


@jit
def f(x):  # scaffolding: a function with the test mattjj describes
    if x < 0:
        return -x
    return x


try:  # scaffolding
    f(3)
    _report({"jit(f)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
