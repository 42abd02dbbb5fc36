# source: https://github.com/che-shr-cat/JAX-in-Action
# expect: trace-time-error at line 31
# runtime: ERROR TracerIntegerConversionError
# why: x is traced under jax.jit, so range(x) needs a Python int from a tracer and raises TracerIntegerConversionError (the book shows this error for jax.jit(f5)(5)).
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


import jax  # scaffolding

def f5(x):
  y = 0
  for i in range(x):
    y += i
  return y

f5(5)

try:  # scaffolding
    jax.jit(f5)(5)
    _report({"jit(f5)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
