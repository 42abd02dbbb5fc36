# source: https://github.com/Vodolay/NovaJax
# expect: stale-closure at line 36
# runtime: COMPILES 1 CALLS 4
# why: jax.jit(counter.count) traces the method once; self.n += 1 runs only during tracing and the compiled function returns the constant 1 on every call (1, 1, 1, 1 instead of 1, 2, 3, 4).
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

class Counter:
  def __init__(self):
    self.n = 0

  def count(self):
    self.n += 1
    return self.n

  def reset(self):
    self.n = 0

counter = Counter()

for _ in range(4):
  print(counter.count())

counter.reset()
fast_count = jax.jit(counter.count)

for _ in range(4):
  print(fast_count())
_report({"jit(count)"}, 4)  # scaffolding
