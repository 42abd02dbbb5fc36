# source: https://github.com/AbeelLab/jaxkineticmodel/blob/8dbc5393571f64d9c2191b7a6ae24caa1a8186d6/jax_implementation/examples/jax_tutorials.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: CounterV2.count takes and returns the state explicitly, so the jitted fast_count compiles once and prints 1, 2, 3 like the eager loop.
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
# cell 13 (its first half, the stateful Counter, is in the positive partner)
#we can resolve this by making the state of counter an  explicit state
CounterState = int

class CounterV2:

  def count(self, n: CounterState) -> tuple[int, CounterState]:
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

state = counter.reset()
fast_count = jax.jit(counter.count)

for _ in range(3):
  value, state = fast_count(state)
  print(value)

#this is a general strategy: we can apply the same process to any stateful method to convert it into a stateless one
# class StatefulClass

#   state: State

#   def stateful_method(*args, **kwargs) -> Output:

# class StatelessClass

#   def stateless_method(state: State, *args, **kwargs) -> (Output, State):
_report({"jit(count)"}, 3)  # scaffolding
