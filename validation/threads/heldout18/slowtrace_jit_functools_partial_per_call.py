# source: https://docs.jax.dev/en/latest/debugging/slow_tracing_compilation.html
# expect: jit-in-loop-or-body at line 38
# runtime: COMPILES 5 CALLS 5
# why: the guide's fix still builds a new jax.jit(functools.partial(...)) wrapper on every top_function call, and on jax 0.10.2 each call compiles again (5 compiles for 5 calls with the same scale_factor), so the advice does not avoid recompilation.
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

# ✔️ GOOD: Using functools.partial
import functools

def add_multiply(a, b, scale):
  return (a + b) * scale

def top_function(x, y, scale_factor):
  # JAX correctly unwraps functools.partial and hits the tracing cache!
  return jax.jit(functools.partial(add_multiply, scale=scale_factor))(x, y)


x = jnp.ones(8)  # scaffolding
y = jnp.ones(8)  # scaffolding
for _ in range(5):  # scaffolding
    top_function(x, y, 2.0)  # scaffolding
_report({"jit(add_multiply)"}, 5)  # scaffolding
