# source: https://github.com/PredictiveIntelligenceLab/TRIPODS_Winter_School_2022/blob/e7f6d28d8cbc6456a77b28963ea92e41da0a0dde/DeepONets.ipynb
# expect: stale-closure at line 44
# runtime: COMPILES 1 CALLS 4
# why: jax.jit(counter.count) traces the bound method once; self.state is read and incremented only at trace time, so every call returns the cached 1 while the Python counter never advances again.

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
class Counter:
  def __init__(self):
    self.state = 0

  def count(self) -> int:
    self.state += 1
    return self.state

counter = Counter()

for _ in range(3):
  print(counter.count())

counter = Counter()
fast_count = jax.jit(counter.count)

for _ in range(3):
  print(fast_count())
print("OUTPUTS jitted", int(fast_count()), "a working counter would give", 4)  # scaffolding: 4th call
_report({"jit(count)"}, 4)  # scaffolding
