# source: https://github.com/AbeelLab/jaxkineticmodel/blob/8dbc5393571f64d9c2191b7a6ae24caa1a8186d6/jax_implementation/examples/jax_tutorials.ipynb
# expect: stale-closure at line 39
# runtime: COMPILES 1 CALLS 3
# why: fast_count = jax.jit(counter.count) jits a bound method whose self.n += 1 runs only while tracing, so the three calls print 1, 1, 1 and counter.n stays 1 (stale; the eager loop before printed 1, 2, 3).
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
# cell 1
import jax
import jax.numpy as jnp
import numpy as np
# scaffolding: the rest of cell 1 and cells 2-12 (selu/jit timing, pytrees, vmap, an MLP update) are cut; they do not touch the counter
# cell 13
class Counter:
  """A simple counter."""

  def __init__(self):
    self.n = 0

  def count(self) -> int:
    """Increments the counter and returns the new value."""
    self.n += 1
    return self.n

  def reset(self):
    """Resets the counter to zero."""
    self.n = 0


counter = Counter()

for _ in range(3):
  print(counter.count())

counter.reset()
fast_count = jax.jit(counter.count)

for _ in range(3):
  print(fast_count()) #self.n+=1 in count invovles a side effect: it modifies the input counter in-place, and so this function is not supported by jit
  #Such side effects are executed only once when the function is first traced, and subsequent calls will not repreat the side effects.

print(f"counter.n after three fast_count() calls: {counter.n} (stale: {counter.n != 3})")  # scaffolding: the side effect ran once, at trace time
_report({"jit(count)"}, 3)  # scaffolding
