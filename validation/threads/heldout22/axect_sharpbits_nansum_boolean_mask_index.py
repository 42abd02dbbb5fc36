# source: https://github.com/Axect/JAX_tutorial/blob/3745e50043289acd722421ed0d22d7c5fe04194c/02_sharpbits.py
# expect: trace-time-error at line 32
# runtime: ERROR NonConcreteBooleanIndexError
# why: boolean-mask indexing has a data-dependent shape, so jit(nansum) raises NonConcreteBooleanIndexError.
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

def nansum(x):
    mask = ~jnp.isnan(x)
    x_without_nans = x[mask] # Shape changed!
    return x_without_nans.sum()

x = jnp.array([1, 2, jnp.nan, 3, 4])
print(nansum(x)) # it works outside JIT

try:
    jit(nansum)(x) # because of dynamic shape
    _report({"jit(nansum)"}, 1)  # scaffolding
except NonConcreteBooleanIndexError as e:
    print(e)
    print(f"ERROR {type(e).__name__}")  # scaffolding
