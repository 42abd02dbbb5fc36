# source: https://github.com/scipy/scipy/pull/22219
# expect: trace-time-error at line 35
# runtime: ERROR TracerBoolConversionError
# why: f calls scipy's _asarray with check_finite=True on a traced JAX array inside jax.jit; the finiteness check converts a traced boolean to a Python bool, so tracing fails.

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
os.environ["SCIPY_ARRAY_API"] = "1"  # scaffolding
import jax
import jax.numpy as xp
from scipy._lib._array_api import _asarray
a = xp.asarray([0])
def f(a):
    return _asarray(a, check_finite=True)
try:  # scaffolding
    jax.jit(f)(a)
    _report({"jit(f)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
