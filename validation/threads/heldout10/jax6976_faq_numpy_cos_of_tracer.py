# source: https://github.com/jax-ml/jax/issues/6976
# expect: trace-time-error at line 35
# runtime: ERROR TracerArrayConversionError
# why: func calls plain numpy np.cos on its argument, which is a tracer while jax.jit traces func, so numpy calls __array__ on it and tracing raises TracerArrayConversionError.

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
import numpy as np  # scaffolding: the FAQ snippet writes np for plain numpy


def func(x):
  print(x)
  return np.cos(x)

try:  # scaffolding
  res = jax.jit(func)(0.)
  _report({"jit(func)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")  # scaffolding
