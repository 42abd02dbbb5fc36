# source: https://github.com/jax-ml/jax/issues/20889
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: With the mask passed as an ordinary (primal) argument instead of through nondiff_argnums, the JVP rule receives it explicitly and grad through the scan works.

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

def func_jvp(primals, tangents):
  arr, mask = primals
  arr_dot, _ = tangents
  return arr * mask, arr_dot * mask

func = jax.custom_jvp(func_fwd)
func.defjvp(func_jvp)

def step(carry, _):
  return (func(*carry), carry[1]), None

def loss(x, mask):
  carry, _ = jax.lax.scan(step, (x, mask), [None] * 2, length = 2)
  return carry[0].sum()

x = jnp.ones(10)
mask = jnp.zeros(10, dtype=bool)

grad_loss = jax.jit(jax.grad(loss))  # scaffolding
gradients = grad_loss(x, mask)
gradients = grad_loss(x + 1.0, mask)  # scaffolding
_report({"jit(loss)"}, 2)  # scaffolding
