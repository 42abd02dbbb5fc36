# source: https://github.com/jax-ml/jax/pull/2508
# expect: stale-closure at line 36
# runtime: COMPILES 1 CALLS 6
# why: impure_func reads the global y, which jit bakes in at the first trace (y=0); the loop rebinds y but later calls reuse the cached compilation and return x + 0 (0, 1, 2 instead of 0, 2, 4).

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
from jax import jit  # scaffolding

y = 0

@jit   # Different behavior with jit
def impure_func(x):
  print("Inside:", y)
  return x + y

results = []  # scaffolding
for y in range(3):
  print("Result:", impure_func(y))
  results.append(int(impure_func(y)))  # scaffolding
assert results == [0, 1, 2], results  # scaffolding: without jit it would be [0, 2, 4]
_report({"jit(impure_func)"}, 6)  # scaffolding
