# source: https://github.com/jax-ml/jax/blob/main/docs/new_docs/201/jit.md
# expect: trace-time-error at line 35
# runtime: ERROR TypeError
# why: @jax.jit on a method traces self, and a plain CustomClass instance is not a valid JAX type, so c.calc(3) raises TypeError.
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

  @jax.jit  # <---- How to do this correctly?
  def calc(self, y):
    if self.mul:
      return self.x * y
    return y

try:  # scaffolding
    c = CustomClass(2, True)
    c.calc(3)
    _report({"jit(calc)"}, 1)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
