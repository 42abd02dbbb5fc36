# source: https://github.com/scipy/scipy/pull/24422
# expect: trace-time-error at line 38
# runtime: ERROR TracerBoolConversionError
# why: stats.epps_singleton_2samp in the installed scipy 1.17.1 (before this PR enabled JIT) validates t and branches in Python on array values, so calling it on traced samples inside jax.jit raises TracerBoolConversionError.
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


os.environ.setdefault("SCIPY_ARRAY_API", "1")  # scaffolding: scipy's array-API (JAX) dispatch, as in the PR's test runs
import jax  # scaffolding
import jax.numpy as xp  # scaffolding
from scipy.stats import epps_singleton_2samp  # scaffolding

x = xp.asarray([-0.35, 2.55, 1.73, 0.73, 0.35])  # the PR's test samples
y = xp.asarray([-1.15, -0.15, 2.48, 3.25, 3.71])


@jax.jit  # scaffolding: the PR's tests run each call under jax.jit (jax_autojit)
def run(x, y):  # scaffolding
    w, p = epps_singleton_2samp(x, y)  # the call the PR makes jittable
    return w, p  # scaffolding


try:  # scaffolding
    for k in range(3):  # scaffolding
        run(x, y + 0.1 * k)  # scaffolding
    _report({"jit(run)"}, 3)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
