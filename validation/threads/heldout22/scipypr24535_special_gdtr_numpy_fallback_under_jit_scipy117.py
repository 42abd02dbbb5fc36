# source: https://github.com/scipy/scipy/pull/24535
# expect: trace-time-error at line 37
# runtime: ERROR TracerArrayConversionError
# why: in the installed scipy 1.17.1 (before this PR) special.gdtr has no JAX implementation and its delegation falls back to the NumPy ufunc with np.asarray on the arguments, so calling it inside jax.jit raises TracerArrayConversionError; the PR routes that fallback through lazy_apply.
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
from scipy import special  # scaffolding

x = xp.asarray([0.5, 1.0, 2.0])  # scaffolding


@jax.jit  # scaffolding: a jitted caller of a special function that has no JAX implementation
def run(x):  # scaffolding
    return special.gdtr(1.0, 2.0, x)  # falls back to the NumPy ufunc (the PR wraps that in lazy_apply)


try:  # scaffolding
    for k in range(3):  # scaffolding
        run(x * (k + 1))  # scaffolding
    _report({"jit(run)"}, 3)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
