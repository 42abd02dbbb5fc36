# source: https://github.com/classicboyir/learn-jax/blob/db40a3a94369ceb5720c96066be7923e4283684a/basics_02.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the notebook's own fix: CounterV2.count takes the state n as an argument and returns the new one, so the jitted count compiles once and the loop prints 1, 2, 3.
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
from typing import NamedTuple, Tuple  # scaffolding: imported in cell 22, which is cut
# cells 2-28 cut; cells 27-28 (the stateful Counter) are the positive file  # scaffolding
# cell 29
CounterState = int

class CounterV2:

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
# cell 30
state = counter.reset()
fast_count = jax.jit(counter.count)

for _ in range(3):
  value, state = fast_count(state)
  print(value)
_report({"jit(count)"}, 3)  # scaffolding
