# source: https://github.com/jax-ml/jax/issues/12306
# expect: trace-time-error at line 36
# runtime: ERROR ValueError
# why: jax.jit(func)(b) rebuilds Boxes through tree_unflatten before entering the checkified function, so Boxes.__init__ runs checkify.check outside checkify while tracing and raises ValueError (the eager func(b) works).
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


from jax.tree_util import register_pytree_node_class
import jax.numpy as jnp
from jax.experimental import checkify
import jax

@register_pytree_node_class
class Boxes:
  def __init__(self, arr: jnp.ndarray):
    self.arr = arr
    checkify.check((self.arr >= 0).all(), "x")
  
  def area(self) -> jnp.ndarray:
    # checkify.check((self.arr >= 0).all(), "x") # this alone works
    return (self.arr[:, 2] - self.arr[:, 0]) * (self.arr[:, 3] - self.arr[:, 1])

  def tree_flatten(self):
    return ((self.arr,), None)
  
  @classmethod
  def tree_unflatten(cls, _, children):
    return cls(children[0])

def func(x: Boxes):
  return x.area() + 3

func = checkify.checkify(func)

b = Boxes(jnp.float32([[1, 2, 3, 4]]))
print(b)
print(func(b))  # works
try:  # scaffolding
  print(jax.jit(func)(b))   
  # =>  ValueError: Cannot abstractly evaluate a checkify.check which was not functionalized. This probably means you tried to stage (jit/scan/pmap/...) a `check` without functionalizing it through `checkify.checkify`.
  _report({"jit(checked_fun)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")  # scaffolding
