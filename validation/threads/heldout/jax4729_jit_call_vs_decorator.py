# source: https://github.com/jax-ml/jax/issues/4729
# expect: none
# runtime: COMPILES 2 CALLS 4
# why: jit(f) and @jit are the same thing: each wrapper is created once and compiles once for its 2 calls (jakevdp: the timing difference was a warm cache of jnp.maximum).

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
import jax.numpy as jnp
from jax import grad, jit

def relu_default(x):
  return jnp.maximum(0, x)

@jit
def relu_decorator(x):
  return jnp.maximum(0, x)


# jit the function without any decorator and trigger its first compilation.
relu_jit = jit(relu_default)
relu_jit(2.0).block_until_ready()       # around 11 ms

# do the same for the function with the @jit decorator.
relu_decorator(2.0).block_until_ready() # around 6 ms

# after the initial complilation, the speed discrepancy seems to vanish.
relu_jit(2.0).block_until_ready()         # 320 us per loop
relu_decorator(2.0).block_until_ready()   # 319 us per loop
_report({"jit(relu_default)", "jit(relu_decorator)"}, 4)
