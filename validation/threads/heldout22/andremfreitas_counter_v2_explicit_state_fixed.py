# source: https://github.com/andremfreitas/ml/blob/3caa94f5d7f3a71f614fc36de94e34a3fa4a2369/jax/tutorial/stateful_computations/counter.py
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: CounterV2 threads the count through arguments and return values, so the jitted count returns 1, 2, 3 and compiles once.
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

CounterState = int

class CounterV2:
 """Counter that can be jitted"""
 def count(self, n: CounterState) -> Tuple[int, CounterState]:
  # You could just return n+1, but here we separate its role as 
  # the output and as the counter state for didactic purposes.
  return n+1, n+1

 def reset(self) -> CounterState:
  return 0

counter = CounterV2()
state = counter.reset()

for _ in range(3):
 value, state = counter.count(state)
 print(value)

#jit it
state = counter.reset()
fast_count = jax.jit(counter.count)

for _ in range(3):
  value, state = fast_count(state)
  print(value)
_report({"jit(count)"}, 3)  # scaffolding
