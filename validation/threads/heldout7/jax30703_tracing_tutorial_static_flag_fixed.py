# source: https://github.com/jax-ml/jax/pull/30703
# expect: none
# runtime: COMPILES 2 CALLS 3
# why: With neg marked static the conditional runs in Python; each distinct flag value compiles once (the tutorial's f(1, True) then f(1, False)), repeats hit the cache.

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
from functools import partial
from jax import jit

@jit(static_argnums=(1,))
def f(x, neg):
  return -x if neg else x

f(1, True)
f(1, False)
f(2, True)  # scaffolding
_report({"jit(f)"}, 3)  # scaffolding
