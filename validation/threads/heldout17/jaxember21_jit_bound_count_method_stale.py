# source: https://github.com/suvash/jaxember-21
# expect: stale-closure at line 48
# runtime: COMPILES 1 CALLS 5
# why: jax.jit(counter.count) runs self.n += 1 only while tracing and bakes the returned 1 into the compiled program, so the 5 calls all print 1 (1 compile, 5 calls) and counter.n stays at 1: the mutation of self is lost.
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
    def __init__(self):
        self.n = 0

    def count(self) -> int:
        self.n += 1
        return self.n

    def reset(self):
        self.n = 0

counter = Counter()

for _ in range(5):
    print(counter.count())

counter.reset()

jit_count = jax.jit(counter.count)

for _ in range(5):
    print(jit_count())
_report({"jit(count)"}, 5)  # scaffolding
