# source: https://github.com/scipy/scipy/pull/24501
# expect: trace-time-error at line 35
# runtime: ERROR TracerBoolConversionError
# why: stats.binomtest in the installed scipy 1.17.1 (before this PR enabled JIT) branches in Python on the traced p (input validation), so the PR's test call binomtest(3, n=10, p=p, alternative='less') inside jax.jit raises TracerBoolConversionError.
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


@jax.jit  # scaffolding: the PR's tests run each call under jax.jit (jax_autojit)
def run(p):  # scaffolding
    res = stats.binomtest(3, n=10, p=p, alternative='less')  # the PR's test call
    return res.pvalue  # scaffolding


try:  # scaffolding
    for k in range(3):  # scaffolding
        run(xp.asarray(0.1 * (k + 1)))  # scaffolding
    _report({"jit(run)"}, 3)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
