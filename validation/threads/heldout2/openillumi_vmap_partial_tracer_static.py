# source: https://openillumi.com/?p=43923
# expect: unhashable-static at line 41
# runtime: ERROR ValueError
# why: partial(map_row, alpha, T) binds alpha and T to the first two parameters, so the vmapped input lands on map_row's static third parameter; it is a tracer, which cannot be hashed, so jit raises ValueError (non-hashable static argument).

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


from functools import partial
import jax
import jax.numpy as jnp
from jax import vmap

@partial(jax.jit, static_argnums=(2,))
def map_row(z, alpha, T):
    return alpha * z / T  # scaffolding

alpha, T = 0.5, 3  # scaffolding
input = jnp.ones((4, 3))  # scaffolding
axis = 0  # scaffolding
try:  # scaffolding
    vmap(partial(map_row, alpha, T), axis)(input)
    _report({"jit(map_row)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
