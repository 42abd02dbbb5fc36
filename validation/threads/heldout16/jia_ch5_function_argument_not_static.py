# source: https://github.com/che-shr-cat/JAX-in-Action
# expect: trace-time-error at line 45
# runtime: ERROR TypeError
# why: activation_func is a positional argument of jax.jit(dense_layer) that is not marked static, and a function is not a valid JAX type, so dense_layer_jit(x, w, b, selu) raises TypeError (the book shows a TypeError).
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
import jax.numpy as jnp

@jax.jit
def selu(x,
         alpha=1.6732632423543772848170429916717,
         scale=1.0507009873554804934193349852946):
  '''Scaled exponential linear unit activation function.'''
  return scale * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)

def dense_layer(x, w, b, activation_func):
    return activation_func(x*w+b)

x = jnp.array([1.0, 2.0, 3.0])
w = jnp.ones((3,3))
b = jnp.ones(3)

try:  # scaffolding
    dense_layer_jit = jax.jit(dense_layer)

    dense_layer_jit(x, w, b, selu)
    _report({"jit(dense_layer)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
