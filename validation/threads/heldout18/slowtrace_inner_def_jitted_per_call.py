# source: https://docs.jax.dev/en/latest/debugging/slow_tracing_compilation.html
# expect: jit-in-loop-or-body at line 40
# runtime: COMPILES 5 CALLS 5
# why: custom_einsum is a new function object on every top_function call, so jax.jit(custom_einsum) misses the cache and compiles again each time.
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

x = jnp.ones((4, 3))  # scaffolding
y = jnp.ones((4, 3))  # scaffolding

# ❌ BAD: Recreating function object on every call
def top_function():  # scaffolding: the page elides the parameters as '...'
  # Creates a brand new function object with a new memory id on every call
  # to `top_function`.
  def custom_einsum(a, b):
    return jnp.einsum("...i,...i->...", a, b)

  return jax.jit(custom_einsum)(x, y)


for _ in range(5):  # scaffolding
    top_function()  # scaffolding
_report({"jit(custom_einsum)"}, 5)  # scaffolding
