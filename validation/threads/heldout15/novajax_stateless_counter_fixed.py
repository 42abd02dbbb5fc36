# source: https://github.com/Vodolay/NovaJax
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: the notebook's explicit-state rewrite passes n in and returns n + 1, so the jitted count compiles once and counts 1, 2, 3, 4.
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
import jax.numpy as jnp

CounterState = int

class SatetelessCounter:

  def count(self, n):
    return n+1

  def reset(self):
    return 0

scounter = SatetelessCounter()
state = scounter.reset()

for _ in range(4):
  state = scounter.count(state)
  print(state)

state = scounter.reset()
fast_scount = jax.jit(scounter.count)

for _ in range(4):
  state = fast_scount(state)
  print(state)
_report({"jit(count)"}, 4)  # scaffolding
