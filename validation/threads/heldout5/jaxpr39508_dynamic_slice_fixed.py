# source: https://github.com/jax-ml/jax/pull/39508
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the error's suggestion, lax.dynamic_slice with a static size of 2, works with a traced start: one compile for two different starts.
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
import jax
import jax.numpy as jnp


@jax.jit
def window(x, i):  # scaffolding
    return jax.lax.dynamic_slice(x, (i,), (2,))


window(jnp.arange(5.0), 1)
window(jnp.arange(5.0), 3)
_report({"jit(window)"}, 2)
