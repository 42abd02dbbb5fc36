# source: https://github.com/google-deepmind/chex/issues/387
# expect: trace-time-error at line 34
# runtime: ERROR TracerBoolConversionError
# why: chex.assert_equal compares its arguments in Python (a static assertion), so inside @jax.jit it compares a tracer with 0 and raises TracerBoolConversionError even under chexify; the fix PR is not merged in chex 0.1.92.

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
import chex

@chex.chexify
@jax.jit
def f(x):
    chex.assert_equal(x, 0)
    return

try:  # scaffolding
    f(0)
    _report({"jit(f)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
