# source: https://github.com/jax-ml/jax/issues/7426
# expect: trace-time-error at line 31
# runtime: ERROR TracerBoolConversionError
# why: The Python flag s is passed to jax.jit(f) as a traced argument, and f branches on it with a Python conditional expression.
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


# --- end harness ---

import jax

def f(x, s): return x if s else x + 1.
def g(x): return jax.jit(f)(x, False)

try:  # scaffolding
    print(g(1.))             # case 1: expected error
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
