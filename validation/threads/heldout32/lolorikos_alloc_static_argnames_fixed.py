# source: https://github.com/lolorikos/sciml-jax/commit/2993cd3b342469ea8ea73186262bd750599d28da
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: The learner's fix declares length static with the @jax.jit(static_argnames='length') decorator form, so one concrete length compiles once.

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


@jax.jit(static_argnames='length')
def alloc(length, val):
    return jnp.arange(length) * val

print(alloc(10, 1.0))
_report({"jit(alloc)"}, 1)
