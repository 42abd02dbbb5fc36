# source: https://github.com/classicboyir/learn-jax/blob/db40a3a94369ceb5720c96066be7923e4283684a/basics_02.ipynb
# expect: stale-closure at line 35
# runtime: COMPILES 2 CALLS 3
# why: jit(impure_uses_globals) bakes in g = 15 at the first trace; after g = 10 the second call (same float input, cache hit) still returns 20.0 instead of 15.0, and only the new shape in the third call retraces (2 compiles, 3 calls); cell 7's jitted function then stores a tracer in the global g.
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

# cell 1
import jax
import jax.numpy as jnp
from jax import jit
from jax import make_jaxpr
# cells 2-4 (the traced/static flag example) are separate files  # scaffolding
# cell 5
g = 15.
def impure_uses_globals(x):
  return x + g
# cell 6
# JAX captures the value of the global during the first run
print ("First call: ", jit(impure_uses_globals)(4.))
g = 10.  # Update the global

# Subsequent runs may silently use the cached value of the globals
print ("Second call: ", jit(impure_uses_globals)(5.))

# JAX re-runs the Python function when the type or shape of the argument changes
# This will end up reading the latest value of the global
print ("Third call, different type: ", jit(impure_uses_globals)(jnp.array([4.])))
# cell 7
g = 10.
def impure_saves_global(x):
    global g
    g = x + g
    return x

print(jit(impure_saves_global)(4.))
print(g)
_report({"jit(impure_uses_globals)"}, 3)  # scaffolding: the three calls of cell 6
