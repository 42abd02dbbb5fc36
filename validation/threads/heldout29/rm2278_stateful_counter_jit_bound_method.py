# source: https://github.com/rm-2278/JAX_practice/blob/96971f24235faaf44894f033f4f799dfbae6764d/functions/stateful.py
# expect: stale-closure at line 35
# runtime: COMPILES 2 CALLS 6
# why: jax.jit(x.count) runs self.state += 1 only while tracing, so the three calls print 1, 1, 1 and the counter never advances (the StatelessCounter half, which threads state through the argument, prints 1, 2, 3 and compiles once).
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

class Counter:
    state: int
    
    def __init__(self):
        self.state = 0
    
    def count(self):
        self.state += 1
        return self.state
    
    
x = Counter()
countjit = jax.jit(x.count)
print(countjit())
print(countjit())
print(countjit())


class StatelessCounter:
    
    def count(self, state):
        state += 1
        return state
    
x = StatelessCounter()
state = 0
countjit = jax.jit(x.count)
for i in range(3):
    state = countjit(state)
    print(state)

_report({"jit(count)"}, 6)  # scaffolding
