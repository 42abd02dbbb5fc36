# source: https://github.com/jax-ml/jax/issues/7693
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: jnp.piecewise with Python callables as branches is called in a loop; in 2021 each call built new wrapped functions and recompiled, but on jax 0.10.2 the internal jitted _piecewise is cached across calls, so it compiles once for the 5 calls.

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


def g(x):
  one = jnp.ones_like(x)
  return jnp.where(x>0, one, -one)

def f1(x):
  one = jnp.ones_like(x)
  return jnp.piecewise(x, [x < 0, x > 0], [g, g, 0.])

x = jnp.arange(-2, 3)
for i in range(5):
  print(i, 'f1', f1(x))
_report({"jit(_piecewise)"}, 5)  # scaffolding
