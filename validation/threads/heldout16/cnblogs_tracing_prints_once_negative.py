# source: https://www.cnblogs.com/xyz/p/17954270
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the print calls inside the jitted f run only while tracing; the second call with inputs of the same shape and dtype reuses the compiled program and prints nothing (1 compile for 2 calls), as the post describes.
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


from jax import jit
import jax.numpy as jnp

import numpy as np

@jit
def f(x, y):
  print("Running f():")
  print(f"  x = {x}")
  print(f"  y = {y}")
  result = jnp.dot(x + 1, y + 1)
  print(f"  result = {result}")
  return result

x = np.random.randn(3, 4)
y = np.random.randn(4)
f(x, y)

x2 = np.random.randn(3, 4)
y2 = np.random.randn(4)
f(x2, y2)
_report({"jit(f)"}, 2)  # scaffolding
