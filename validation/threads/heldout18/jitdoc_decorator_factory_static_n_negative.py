# source: https://docs.jax.dev/en/latest/_autosummary/jax.jit.html
# expect: none
# runtime: COMPILES 3 CALLS 3
# why: the decorator-factory form @jax.jit(static_argnames=['n']) works on 0.10.2 and n is static, so the range(n) loop unrolls at trace time; selu and g each compile once.
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
import jax.numpy as jnp  # scaffolding

@jax.jit
def selu(x, alpha=1.67, lmbda=1.05):
  return lmbda * jax.numpy.where(x > 0, x, alpha * jax.numpy.exp(x) - alpha)

key = jax.random.key(0)
x = jax.random.normal(key, (10,))
print(selu(x))

@jax.jit(static_argnames=['n'])
def g(x, n):
  for i in range(n):
    x = x ** 2
  return x

print(g(jnp.arange(4), 3))  # scaffolding: print

from functools import partial

@partial(jax.jit, static_argnames=['n'])
def g(x, n):
  for i in range(n):
    x = x ** 2
  return x

print(g(jnp.arange(4), 3))  # scaffolding: print
_report({"jit(selu)", "jit(g)"}, 3)  # scaffolding
