# source: https://openillumi.com/?p=43923
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the answer's lambda z: map_row(z, alpha, T) puts the mapped input in the traced slot and keeps T static, so map_row compiles once.

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
vmap(lambda z: map_row(z, alpha, T), axis)(input)
_report({"jit(map_row)"}, 1)  # scaffolding
