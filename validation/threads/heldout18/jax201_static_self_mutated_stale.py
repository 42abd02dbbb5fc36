# source: https://github.com/jax-ml/jax/blob/main/docs/new_docs/201/jit.md
# expect: stale-closure at line 36
# runtime: COMPILES 1 CALLS 2
# why: self is static and hashed by object id, so after c.mul = False the second c.calc(3) hits the cached executable and still returns 6 instead of 3 (1 compile, 2 calls).
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


import jax  # scaffolding: from the page's first cell
import jax.numpy as jnp  # scaffolding: from the page's first cell

class CustomClass:
  def __init__(self, x: jax.Array, mul: bool):
    self.x = x
    self.mul = mul

  # WARNING: broken, as we'll see below. Don't copy & paste!
  @jax.jit(static_argnums=0)
  def calc(self, y):
    if self.mul:
      return self.x * y
    return y

c = CustomClass(2, True)
print(c.calc(3))

c.mul = False
print(c.calc(3))  # Should print 3... but the cache doesn't know mul changed
_report({"jit(calc)"}, 2)  # scaffolding
