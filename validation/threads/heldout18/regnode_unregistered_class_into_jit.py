# source: https://docs.jax.dev/en/latest/_autosummary/jax.tree_util.register_pytree_node.html
# expect: trace-time-error at line 41
# runtime: ERROR TypeError
# why: MyContainer is not a registered pytree, so passing it to jax.jit(f) raises TypeError (it cannot be interpreted as an abstract array).
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


import jax  # scaffolding
import jax.numpy as jnp  # scaffolding

class MyContainer:
  def __init__(self, size):
    self.x = jnp.zeros(size)
    self.y = jnp.ones(size)
    self.size = size

m = MyContainer(size=5)
def f(m):
  return m.x + m.y + jnp.arange(m.size)

try:  # scaffolding
    jax.jit(f)(m)
    _report({"jit(f)"}, 1)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
