# source: https://github.com/jax-ml/jax/issues/4585
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: for the reporter's actual need (the location of a unique maximum) the reporter's own rewrite with argmax and unravel_index has a static output shape, so it traces under jit and compiles once.

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


# --- end harness ---
from jax import jit
import jax.numpy as jnp


@jit
def loc_of_max(a):  # scaffolding
    #jnp.where(a=jnp.max(a))
    return jnp.unravel_index(jnp.argmax(a.flatten()), a.shape)


loc_of_max(jnp.arange(6.0).reshape(2, 3))  # scaffolding
loc_of_max(jnp.arange(6.0).reshape(2, 3) * -1)  # scaffolding
_report({"jit(loc_of_max)"}, 2)  # scaffolding
