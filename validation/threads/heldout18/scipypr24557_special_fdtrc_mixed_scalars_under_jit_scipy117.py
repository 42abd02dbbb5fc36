# source: https://github.com/scipy/scipy/pull/24557
# expect: trace-time-error at line 35
# runtime: ERROR TracerArrayConversionError
# why: in the installed scipy 1.17.1 (before this PR's fix) special.fdtrc on a JAX array falls back to NumPy (np.asarray on every argument), so the PR's mixed Python-scalar/array call inside jax.jit converts a tracer and raises.
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
from scipy import special  # scaffolding


@jax.jit  # scaffolding: the PR's test runs under jax.jit (jax_autojit)
def run(x):  # scaffolding
    return special.fdtrc(1.1, 2., x)  # the PR's test_mixed_arrays_and_python_scalars call


try:  # scaffolding
    for k in range(3):  # scaffolding
        run(xp.asarray(1. + k, dtype=xp.float32))  # scaffolding
    _report({"jit(run)"}, 3)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
