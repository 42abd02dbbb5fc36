# source: https://github.com/PhillipLo/jax-tutorial/blob/main/tutorial.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the tutorial's fix: add_one declared static_argnums=1, so the Python if sees a concrete bool (1 compile, 1 call).
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

import numpy as np
import jax.numpy as jnp
from jax import jit

def add_one_or_two(x, add_one): 
  if add_one: # control flow depends on the argument add_one
    return x + 1
  else:
    return x + 2

add_one_or_two_jitted = jit(add_one_or_two, static_argnums = 1)
print(add_one_or_two_jitted(1.0, True))  # scaffolding: print added
_report({"jit(add_one_or_two)"}, 1)  # scaffolding
