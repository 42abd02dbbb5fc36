# source: https://github.com/suvash/jaxember-21
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: the state n is passed in and returned, so the jitted count compiles once and the 5 calls print 1..5.
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

class CounterWithState:
    def count(self, n):
        return n+1, n+1

    def reset(self):
        return 0

counter = CounterWithState()
state = counter.reset()
state

for _ in range(5):
    value, state = counter.count(state)
    print(value)

state = counter.reset()
jit_count = jax.jit(counter.count)

for _ in range(5):
    value, state = jit_count(state)
    print(value)
_report({"jit(count)"}, 5)  # scaffolding
