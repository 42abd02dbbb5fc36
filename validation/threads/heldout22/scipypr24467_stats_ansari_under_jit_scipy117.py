# source: https://github.com/scipy/scipy/pull/24467
# expect: trace-time-error at line 38
# runtime: ERROR NonConcreteBooleanIndexError
# why: stats.ansari in the installed scipy 1.17.1 (declared jax_jit=False until this PR) handles ties with boolean-mask indexing, so calling it on traced samples inside jax.jit raises NonConcreteBooleanIndexError (the same call works eagerly).
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

x = xp.linspace(0., 1., 12)  # scaffolding: two samples
y = 2 * x + xp.sin(7 * x)  # scaffolding


@jax.jit  # scaffolding: the PR lifts ansari's jax_jit=False, so its tests run it under jax.jit
def run(x, y):  # scaffolding
    return stats.ansari(x, y).statistic  # the Ansari-Bradley test on traced samples


try:  # scaffolding
    for k in range(3):  # scaffolding
        run(x, y * (k + 1))  # scaffolding
    _report({"jit(run)"}, 3)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
