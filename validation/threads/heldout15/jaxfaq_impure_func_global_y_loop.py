# source: https://jax.readthedocs.io/en/latest/faq.html
# expect: stale-closure at line 34
# runtime: COMPILES 1 CALLS 3
# why: impure_func reads the global y (rebound by the for loop) while tracing; with @jit the first trace sees y = 0 and the cached computation keeps adding 0, so the results are 0, 1, 2 instead of 0, 2, 4, as the FAQ shows.
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
@jit  # scaffolding: the FAQ's '# @jit # Different behavior with jit', uncommented
def impure_func(x):
  print("Inside:", y)
  return x + y
for y in range(3):
  print("Result:", impure_func(y))
_report({"jit(impure_func)"}, 3)  # scaffolding
