# source: https://github.com/jax-ml/jax/issues/15631
# expect: trace-time-error at line 32
# runtime: ERROR OverflowError
# why: A jitted function returns the Python int 2**64, which cannot be converted to an int32 output when traced.
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

import jax  # scaffolding

try:  # scaffolding
    jax.jit(lambda x: (x, 2**64))(7)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
