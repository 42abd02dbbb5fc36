# source: https://github.com/andremfreitas/ml/blob/3caa94f5d7f3a71f614fc36de94e34a3fa4a2369/jax/tutorial/stateful_computations/counter.py
# expect: stale-closure at line 53
# runtime: COMPILES 1 CALLS 6
# why: jax.jit(counter.count) bakes self.n in at trace time, so the jitted counter returns 1 on every call while the Python side effect runs only once.
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
import jax.numpy as jnp
from typing import Tuple

class Counter:
 """A simple counter."""

 def __init__(self) -> None:
       self.n = 0

 def count(self) -> int:
  """Increments the counter and returns the new value"""
  self.n += 1
  return self.n

 def reset(self) -> None:
  """Resets the counter to zero"""
  self.n = 0


counter = Counter()

for _ in range(3):
 print(counter.count())
  
# Now lets try jitting this

counter.reset()
fast_count = jax.jit(counter.count)

_vals = []  # scaffolding
for _ in range(3):
 print(fast_count())
 _vals.append(int(fast_count()))  # scaffolding
print("jitted values:", _vals)  # scaffolding
_report({"jit(count)"}, 6)  # scaffolding
