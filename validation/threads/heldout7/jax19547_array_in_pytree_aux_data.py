# source: https://github.com/jax-ml/jax/issues/19547
# expect: unhashable-static at line 41
# runtime: ERROR ValueError
# why: tree_flatten puts the jnp array x into aux_data, which jit treats as static cache-key metadata; the second, equal-but-distinct instance forces an equality check on arrays and jit raises.

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
from jax.tree_util import register_pytree_node_class
from jax import numpy as jnp

@register_pytree_node_class
class SimpleClass:
  def __init__(self, x, y):        
    self.x = x
    self.y = y

  def tree_flatten(self):
      children = (self.y, )
      aux_data = (self.x,) # x has to be auxiliary to raise this error
      return (children, aux_data,)
  
  @classmethod
  def tree_unflatten(cls, aux_data, children):
        x, = children
        y, = aux_data
        return cls(x, y)

# create similar objects
a = SimpleClass(x = jnp.array([1, 2]), y = jnp.array([2.5, 3.5, 4.5, 5.5]))
b = SimpleClass(x = jnp.array([1, 2]), y = jnp.array([2.5, 3.5, 4.5, 5.5]))

# just define the simplest function ever to return the object passed to it
def func(param):
   return param

resa = func(a) # this works
resb = func(b) # this works

# jitting the function
func = jax.jit(func)

try:  # scaffolding
    resa = func(a)
    resb = func(b)
    _report({"jit(func)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
