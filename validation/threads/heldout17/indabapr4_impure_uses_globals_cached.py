# source: https://github.com/deep-learning-indaba/indaba-pracs-2022/pull/4
# expect: stale-closure at line 33
# runtime: COMPILES 2 CALLS 3
# why: impure_uses_globals reads the global g, which the first jit trace bakes in as 0.; after g = 10. the second call (same abstract input) reuses the cached trace and returns 4 instead of 14; only the shape change of the third call retraces with the new g.
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


# 0_intro_to_ml_using_jax.ipynb as added by PR #4 (83119f9): the "Globals" cells, in order
import jax
import jax.numpy as jnp

g = 0.
def impure_uses_globals(x):
  return x + g 

# JAX captures the value of the global during the first run
print ("First call: ", jax.jit(impure_uses_globals)(4.))

g = 10.  # Update the global

# Subsequent runs may silently use the cached value of the globals
print ("Second call: ", jax.jit(impure_uses_globals)(4.))

# JAX re-runs the Python function when the type or shape of the argument changes
# This will end up reading the latest value of the global
print ("Third call, different type: ", jax.jit(impure_uses_globals)(jnp.array([4.])))
_report({"jit(impure_uses_globals)"}, 3)  # scaffolding
