# source: https://github.com/classicboyir/learn-jax/blob/db40a3a94369ceb5720c96066be7923e4283684a/basics_02.ipynb
# expect: stale-closure at line 44
# runtime: COMPILES 1 CALLS 3
# why: jax.jit(counter.count) traces the bound method once: self.n += 1 runs only at trace time, so the three calls print 1, 1, 1 (stale) instead of 1, 2, 3, and the counter's state is not advanced by the compiled calls.
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
from jax import jit
from jax import make_jaxpr
# cells 2-26 (other sharp-bits exercises) cut  # scaffolding
# cell 27
import jax
import jax.numpy as jnp

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
# cell 28
counter.reset()
fast_count = jax.jit(counter.count)

for _ in range(3):
  print(fast_count())
_report({"jit(count)"}, 3)  # scaffolding
