# source: https://github.com/jax-ml/jax/issues/23637
# expect: trace-time-error at line 30
# runtime: ERROR TracerBoolConversionError
# why: The scan body calls bool() on its traced carry.
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
def body(c, _): return bool(c), None
try:  # scaffolding
    jax.lax.scan(body, 3., None, length=1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
