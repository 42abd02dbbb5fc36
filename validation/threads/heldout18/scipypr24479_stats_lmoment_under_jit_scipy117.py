# source: https://github.com/scipy/scipy/pull/24479
# expect: trace-time-error at line 37
# runtime: ERROR TracerBoolConversionError
# why: stats.lmoment in the installed scipy 1.17.1 (before this PR enabled JIT) validates its default orders with a Python `if xp.any(order <= 0)` on a jnp array, which is a tracer inside jax.jit, so the call raises while tracing.
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

x = xp.linspace(0.1, 1., 20)  # scaffolding: a small sample


@jax.jit  # scaffolding: the PR's tests run each call under jax.jit (jax_autojit)
def run(sample):  # scaffolding
    return stats.lmoment(sample)  # scaffolding: the call the PR makes jittable


try:  # scaffolding
    for k in range(3):  # scaffolding
        run(x * (k + 1))  # scaffolding
    _report({"jit(run)"}, 3)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
