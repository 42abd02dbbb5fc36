# source: https://github.com/scipy/scipy/pull/24411
# expect: trace-time-error at line 37
# runtime: ERROR NonConcreteBooleanIndexError
# why: stats.rankdata in the installed scipy 1.17.1 (before this PR delegated it to JAX) finds ties with boolean-mask indexing, so calling it on a traced sample inside jax.jit raises NonConcreteBooleanIndexError (the same call works eagerly).
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

x = xp.asarray([0.4, 2.0, 2.0, 0.1, 3.5, 0.4, 1.7, 2.0])  # scaffolding: a sample with ties


@jax.jit  # scaffolding: a jitted caller of rankdata (the PR delegates rankdata to jax.scipy.stats.rankdata)
def run(x):  # scaffolding
    return stats.rankdata(x)  # the call the PR makes jittable


try:  # scaffolding
    for k in range(3):  # scaffolding
        run(x * (k + 1))  # scaffolding
    _report({"jit(run)"}, 3)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
