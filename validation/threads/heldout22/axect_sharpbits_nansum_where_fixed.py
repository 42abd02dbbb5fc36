# source: https://github.com/Axect/JAX_tutorial/blob/3745e50043289acd722421ed0d22d7c5fe04194c/02_sharpbits.py
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: jnp.where keeps the shape static, so the jitted nansum_2 compiles once.
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

x = jnp.array([1, 2, jnp.nan, 3, 4])

@jit
def nansum_2(x):
    mask = ~jnp.isnan(x)
    return jnp.where(mask, x, 0).sum()

print(nansum_2(x)) # it works!
_report({"jit(nansum_2)"}, 1)  # scaffolding
