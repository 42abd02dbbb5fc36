# source: https://docs.jax.dev/en/latest/debugging/slow_tracing_compilation.html
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: custom_einsum is defined once at module level, so jax.jit(custom_einsum) inside top_function reuses the cached executable (1 compile for 5 calls).
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

# ✔️ GOOD: Reusing the same function handle
def custom_einsum(a, b):
  return jnp.einsum("...i,...i->...", a, b)

def top_function():  # scaffolding: the page elides the parameters as '...'
  return jax.jit(custom_einsum)(x, y)


for _ in range(5):  # scaffolding
    top_function()  # scaffolding
_report({"jit(custom_einsum)"}, 5)  # scaffolding
