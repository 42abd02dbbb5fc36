# source: https://github.com/jax-ml/jax/issues/6902
# expect: none
# runtime: COMPILES 2 CALLS 5
# why: f_fwd and f_bwd are jitted once at module level and f is traced inside f_fwd; five jacrev(f)(3.0) calls in a loop compile f_fwd and f_bwd once each (2 compiles for 5 calls), no recompiling.
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
from jax import custom_vjp
from jax import jit
from jax import jacrev
import time


@custom_vjp
@jit
def f(x):
  print("called f!")
  return jnp.sin(x)

@jit
def f_fwd(x):
  print("called f_fwd!")
  return f(x), jnp.cos(x)

@jit
def f_bwd(cos_x, y_bar):
  print("called f_bwd!")
  return (cos_x * y_bar,)

f.defvjp(f_fwd, f_bwd)

for i in range(5):
  start = time.time()
  print(jacrev(f)(3.0))
  print("duration", time.time()-start)
  print("============")

_report({"jit(f)", "jit(f_fwd)", "jit(f_bwd)"}, 5)  # scaffolding: 5 jacrev(f) calls
