# source: https://github.com/jax-ml/jax/issues/2273
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: returning np.all(np.isfinite(x)) from a jitted function is fine: test_nan_return_jit compiles once and gives False, then True for a finite input.

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


import jax
import jax.numpy as np

a = np.array([1., np.nan, 3.])

@jax.jit
def test_nan_return_jit(x):
    return np.all(np.isfinite(x))

print(test_nan_return_jit(a)) # works (False)
print(test_nan_return_jit(np.array([1., 2., 3.])))  # scaffolding: a finite input, same compiled code
_report({"jit(test_nan_return_jit)"}, 2)  # scaffolding
