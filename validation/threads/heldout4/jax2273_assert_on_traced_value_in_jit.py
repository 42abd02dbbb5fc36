# source: https://github.com/jax-ml/jax/issues/2273
# expect: trace-time-error at line 53
# runtime: ERROR TracerBoolConversionError
# why: assert needs a Python bool, but under jit np.all(np.isfinite(x)) is a tracer, so test_nan_assert_jit raises TracerBoolConversionError (hawkinsp: working as intended); returning the same value works.

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



def test_nan_assert_nojit(x):
    assert np.all(np.isfinite(x))

try:  # scaffolding: the thread's script stops here with the expected AssertionError
    print(test_nan_assert_nojit(a)) # works (AssertionError)
except AssertionError:  # scaffolding
    pass  # scaffolding



@jax.jit
def test_nan_assert_jit(x):
    assert np.all(np.isfinite(x))

try:  # scaffolding
    print(test_nan_assert_jit(a)) # doesn't work (TypeError: Abstract value passed to `bool`)
    _report({"jit(test_nan_assert_jit)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
