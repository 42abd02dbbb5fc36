# source: https://github.com/jax-ml/jax/pull/4342
# expect: trace-time-error at line 32
# runtime: ERROR TracerBoolConversionError
# why: x and y are traced arguments of the jitted f, so `if x > y:` asks Python for the truth value of a tracer and raises TracerBoolConversionError.

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

@jax.jit
def f(x,y):
  if x > y:
    return x
  else:
    return y

try:  # scaffolding
    f(1, 2)  # scaffolding
    _report({"jit(f)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
