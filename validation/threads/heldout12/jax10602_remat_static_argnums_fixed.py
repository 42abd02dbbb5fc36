# source: https://github.com/jax-ml/jax/issues/10602
# expect: none
# runtime: COMPILES 0 CALLS 2
# why: The remedy the improved error message names: static_argnums on jax.remat keeps x a Python float, so the if is ordinary Python and f runs.

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
from functools import partial  # scaffolding

import jax

@partial(jax.remat, static_argnums=(0,))  # scaffolding: the fix the error message suggests
def f(x):
  if x > 0: return 5.
  return 2.

print(f(3.))  # scaffolding
print(f(-1.))  # scaffolding
_report({"jit(f)", "jit(checkpoint)"}, 2)  # scaffolding
