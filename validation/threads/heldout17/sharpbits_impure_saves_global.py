# source: https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html
# expect: stale-closure at line 37
# runtime: COMPILES 1 CALLS 1
# why: impure_saves_global assigns its traced argument to the global g, so after the jitted call g holds a leaked JitTracer rather than 4.0 (1 compile, 1 call; no error unless tracer-leak checking is on).
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
from jax import grad, jit
from jax import lax
from jax import random
import jax
import jax.numpy as jnp

g = 0.
def impure_saves_global(x):
  global g
  g = x
  return x

# JAX runs once the transformed function with special Traced values for arguments
print ("First call: ", jit(impure_saves_global)(4.))
print ("Saved global: ", g)  # Saved global has an internal JAX value
_report({"jit(impure_saves_global)"}, 1)  # scaffolding
