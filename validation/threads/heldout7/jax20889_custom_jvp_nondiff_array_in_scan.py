# source: https://github.com/jax-ml/jax/issues/20889
# expect: bad-static-spec at line 40
# runtime: ERROR UnexpectedTracerError
# why: nondiff_argnums marks the array-valued mask as a non-differentiable static-like argument; inside lax.scan the mask is a tracer that the JVP rule closes over, so grad raises UnexpectedTracerError.

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
from jax import numpy as jnp

def func_fwd(arr, mask):
  return arr * mask

def func_jvp(mask, primals, tangents):
  def f(arr):
    return arr * mask
  return jax.jvp(f, primals, tangents)

func = jax.custom_jvp(func_fwd, nondiff_argnums=(1,))
func.defjvp(func_jvp)

def step(carry, _):
  return (func(*carry), carry[1]), None

def loss(x, mask):
  carry, _ = jax.lax.scan(step, (x, mask), [None] * 2, length = 2)
  return carry[0].sum()

x = jnp.ones(10)
mask = jnp.zeros(10, dtype=bool)


try:  # scaffolding
    gradients = jax.grad(loss)(x, mask)
    print("COMPILES 0 CALLS 1")  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
