# source: https://github.com/scipy/scipy/pull/24405
# expect: trace-time-error at line 38
# runtime: ERROR TracerBoolConversionError
# why: stats.false_discovery_control in the installed scipy 1.17.1 (before this PR lifted its jax_jit=False) validates the p-values with a Python if on array values, so calling it inside jax.jit raises TracerBoolConversionError.
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

ps = xp.asarray([0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344,  # scaffolding: p-values of
                 0.0459, 0.3240, 0.4262, 0.5719, 0.6528, 0.7590, 1.000])  # scaffolding: the function's docstring


@jax.jit  # scaffolding: the PR's tests run each call under jax.jit once jax_jit=False is lifted
def run(ps):  # scaffolding
    return stats.false_discovery_control(ps)  # one of the functions the PR makes jittable


try:  # scaffolding
    for k in range(3):  # scaffolding
        run(ps * (1.0 - 0.1 * k))  # scaffolding
    _report({"jit(run)"}, 3)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
