# source: https://github.com/scipy/scipy/pull/22735
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: after this PR (in the installed scipy 1.17.1) stats.tmean applies its limits with masks rather than boolean indexing, so a jitted trimmed mean traces and compiles once for three same-shape samples.
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

x = xp.arange(20.)  # scaffolding


@jax.jit  # scaffolding: the PR's tests run tmean lazily (lazy_xp_function(stats.tmean, static_argnames=("inclusive", "axis")))
def run(x):  # scaffolding
    return stats.tmean(x, (2, 15))  # trimmed mean with limits; the PR masks instead of boolean-indexing


for k in range(3):  # scaffolding
    run(x * (k + 1))  # scaffolding
_report({"jit(run)"}, 3)  # scaffolding
