# source: https://github.com/PredictiveIntelligenceLab/TRIPODS_Winter_School_2022/blob/e7f6d28d8cbc6456a77b28963ea92e41da0a0dde/DeepONets.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: The notebook's own fix: CounterV2.count takes the state as an argument and returns the new one, so the jitted function compiles once and counts correctly.

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
from typing import Tuple

CounterState = int

class CounterV2: #(doesn't even need to be a class)
  def count(self, state: CounterState) -> Tuple[int, CounterState]:
    #The outputs are the same, but we separate them for clarity.
    return state+1, state+1

state = 0
counter = CounterV2()

for _ in range(3):
  value, state = counter.count(state)
  print(value)

state = 0
fast_count = jax.jit(counter.count)

for _ in range(3):
  value, state = fast_count(state)
  print(value)
value, state = fast_count(state)  # scaffolding: 4th call
print("OUTPUTS", int(value))  # scaffolding
_report({"jit(count)"}, 4)  # scaffolding
