# source: https://github.com/jax-ml/jax/issues/2132
# expect: trace-time-error at line 35
# runtime: ERROR TypeError
# why: jit is applied to a generator function (one that yields), which jit cannot trace.
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

from jax import jit

def yf(x):
    yield(x)
    
try:  # scaffolding
    jyf = jit(yf)
    print(yf, jyf)
    print(next(yf(1.5)))
    print(next(jyf(1.5)))
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
