# source: https://github.com/jax-ml/jax/issues/2814
# expect: shape-churn at line 38
# runtime: COMPILES 3 CALLS 3
# why: f is called with arrays of three different shapes, so every call traces and compiles again (3 compiles for 3 calls), which is what the snippet shows with log_compiles.

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

@jax.jit
def f(x):
  return x * x

with jax.log_compiles(True):  # Enable logging
  print("Results with different shapes (triggering recompilation):")
  for n in (2, 3, 4):  # scaffolding: the rest of the snippet is cut off
    print(f(jnp.ones(n)))
_report({"jit(f)"}, 3)  # scaffolding
