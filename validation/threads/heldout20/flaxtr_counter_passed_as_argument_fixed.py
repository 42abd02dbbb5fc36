# source: https://flax.readthedocs.io/en/latest/guides/transforms.html
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the guide's stated fix: f takes counter as an argument, so nnx.jit propagates the in-place count update; 3 calls, count 3, one compile.
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
def f(counter, x):  # the guide's fix: "f should accept counter as an argument"  # scaffolding
  counter.increment()
  return 2 * x

for _ in range(3):  # scaffolding
  y = f(counter, 3)  # scaffolding
print("count:", counter.count.value)  # scaffolding
_report({"jit(f)"}, 3)  # scaffolding
