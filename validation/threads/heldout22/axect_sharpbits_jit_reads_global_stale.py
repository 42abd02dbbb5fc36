# source: https://github.com/Axect/JAX_tutorial/blob/3745e50043289acd722421ed0d22d7c5fe04194c/02_sharpbits.py
# expect: stale-closure at line 32
# runtime: COMPILES 2 CALLS 3
# why: the jitted function reads the global g at trace time, so after g = 10. the second call (same input type, cache hit) still returns x + 0.
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
from jax import grad, jit, lax, random, make_jaxpr, vmap
import jax.numpy as jnp
from jax.errors import TracerBoolConversionError, NonConcreteBooleanIndexError

g = 0.
def impure_uses_globals(x):
    return x + g
print("First call: ", jit(impure_uses_globals)(4.))
g = 10.
print("Second call: ", jit(impure_uses_globals)(5.)) # No change (since inputs are same type)
print("Third call: ", jit(impure_uses_globals)(jnp.array([5.]))) # change (different types)
_report({"jit(impure_uses_globals)"}, 3)  # scaffolding
