# source: https://github.com/scipy/scipy/pull/24443
# expect: trace-time-error at line 38
# runtime: ERROR TracerArrayConversionError
# why: stats.theilslopes on JAX arrays runs eagerly in the installed scipy 1.17.1 (NumPy conversion), but inside jax.jit the traced samples reach np.asarray and raise TracerArrayConversionError; the PR's array-API version still skips JAX under jit (lazy quantile).
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


os.environ.setdefault("SCIPY_ARRAY_API", "1")  # scaffolding: scipy's array-API (JAX) dispatch
import jax  # scaffolding
import jax.numpy as xp  # scaffolding
from scipy import stats  # scaffolding

x = xp.linspace(0., 1., 12)  # scaffolding: paired samples
y = 2 * x + xp.sin(7 * x)  # scaffolding


@jax.jit  # scaffolding: a jitted caller, now that the PR accepts JAX arrays
def run(x, y):  # scaffolding
    return stats.theilslopes(y, x).slope  # the PR adds array-API support (its tests still skip JAX for lazy quantile)


try:  # scaffolding
    for k in range(3):  # scaffolding
        run(x, y * (k + 1))  # scaffolding
    _report({"jit(run)"}, 3)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
