# source: https://github.com/scipy/scipy/pull/24553
# expect: trace-time-error at line 38
# runtime: ERROR TracerArrayConversionError
# why: stats.f_oneway in the installed scipy 1.17.1 (before this PR enabled JIT) gets its p-value from a scipy.special function whose NumPy fallback calls np.asarray on the traced statistic, so calling it inside jax.jit raises.
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
from scipy import stats  # scaffolding


testcase = xp.asarray([1., 2., 3., 4.])  # scaffolding: small sample data


@jax.jit  # scaffolding: the PR's tests run each call under jax.jit (jax_autojit)
def run(testcase):  # scaffolding
    return stats.f_oneway(testcase, testcase * 2.0).statistic  # scaffolding: the call the PR makes jittable


try:  # scaffolding
    for k in range(3):  # scaffolding
        run(testcase + k)  # scaffolding
    _report({"jit(run)"}, 3)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
