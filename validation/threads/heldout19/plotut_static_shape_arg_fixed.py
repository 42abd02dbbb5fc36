# source: https://github.com/PhillipLo/jax-tutorial/blob/main/tutorial.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the tutorial's fix: a is static_argnums=0, so np.ones((a,)) gets a concrete int (1 compile, 1 call).
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

def stupid_mult(a, b): # multiply two integers a and b in a very dumb way
  bs = b * np.ones(shape = (a,)) # the shape of bs depends on a!
  ab = np.sum(bs)

  return ab

stupid_mult_jitted = jit(stupid_mult, static_argnums = 0)
print(stupid_mult_jitted(3, 4))  # scaffolding: print added
_report({"jit(stupid_mult)"}, 1)  # scaffolding
