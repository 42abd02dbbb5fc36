# source: https://github.com/IanQS/numpy_to_jax/blob/0301de5f7595223117312a36d88d79d3bc135502/solutions/sol_06_sharp_edges.ipynb
# expect: trace-time-error at line 37
# runtime: ERROR TracerBoolConversionError
# why: f branches with a Python `if x < 3` on its argument; under jit(f) x is a tracer, so grad(jitted_f)(2.) raises a TracerBoolConversionError while tracing.

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
import numpy as np
from jax import grad, jit
from jax import lax
from jax import random
import jax
import jax.numpy as jnp

def f(x):
  if x < 3:
    return 3. * x ** 3
  else:
    return -4 * x

print(grad(f)(2.))  # ok!
print(grad(f)(4.))  # ok!

try:  # scaffolding
    jitted_f = jit(f)

    print(grad(jitted_f)(2.)) 
    print(grad(jitted_f)(4.))
    _report({"jit(f)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
