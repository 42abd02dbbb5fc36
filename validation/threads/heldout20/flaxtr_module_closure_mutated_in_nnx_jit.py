# source: https://flax.readthedocs.io/en/latest/guides/transforms.html
# expect: trace-time-error at line 42
# runtime: ERROR TraceContextError
# why: the nnx.jit-ed f mutates a Counter module captured by closure instead of taking it as an argument; Flax refuses at trace time with TraceContextError (the guide's 'Mutable Module cannot be passed by closure').
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
from jax import numpy as jnp, random
from flax import nnx

class Counter(nnx.Module):
  def __init__(self):
    self.count = nnx.Param(jnp.array(0))

  def increment(self):
    self.count[...] += jnp.array(1)  # scaffolding: flax 0.12 forbids in-place `self.count += ...` on a Variable (NotImplementedError); the message suggests this form

counter = Counter()

@nnx.jit
def f(x):
  counter.increment()
  return 2 * x

try:
  y = f(3)
  _report({"jit(f)"}, 1)  # scaffolding
except Exception as e:
  print(f"ERROR {type(e).__name__}")  # scaffolding: was print(e)
