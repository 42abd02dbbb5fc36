# source: https://github.com/jax-ml/jax/issues/3285
# expect: trace-time-error at line 33
# runtime: ERROR IndexError
# why: fori_loop traces body_fun even for zero iterations, and vals[i] with a traced i on an array of size 0 is out of bounds at trace time, so the call raises IndexError although it returns 0 under disable_jit.

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


import jax.numpy as jnp
import jax

def loop_cumsum(vals):
  def body_fun(i, state):
    return state + vals[i]
  init = vals.dtype.type(0)
  return jax.lax.fori_loop(0, len(vals), body_fun, init)

with jax.disable_jit():
  print(loop_cumsum(jnp.arange(0)))
# 0

try:  # scaffolding
  loop_cumsum(jnp.arange(0))
  print("COMPILES 0 CALLS 1")  # scaffolding
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")
# IndexError: index is out of bounds for axis 0 with size 0
