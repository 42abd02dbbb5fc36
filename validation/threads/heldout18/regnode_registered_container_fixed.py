# source: https://docs.jax.dev/en/latest/_autosummary/jax.tree_util.register_pytree_node.html
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: after register_pytree_node, x and y are traced children and size is static aux data, so jax.jit(f)(m) compiles once.
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

def flatten_func(obj):
  children = (obj.x, obj.y)  # children must contain arrays & pytrees
  aux_data = (obj.size,)  # aux_data must contain static, hashable data.
  return (children, aux_data)

def unflatten_func(aux_data, children):
  # Here we avoid `__init__` because it has extra logic we don't require:
  obj = object.__new__(MyContainer)
  obj.x, obj.y = children
  obj.size, = aux_data
  return obj

jax.tree_util.register_pytree_node(MyContainer, flatten_func, unflatten_func)

print(jax.jit(f)(m))  # scaffolding: print
_report({"jit(f)"}, 1)  # scaffolding
