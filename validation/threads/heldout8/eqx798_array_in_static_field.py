# source: https://github.com/patrick-kidger/equinox/issues/798
# expect: unhashable-static at line 34
# runtime: ERROR ValueError
# why: A JAX array is stored in an eqx.field(static=True) field, so it becomes pytree metadata and part of filter_jit's cache key; on the second call with a freshly built module the cache lookup compares the array metadata with __eq__, which cannot give a single bool, and the call fails.

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
import equinox as eqx
import jax
import jax.numpy as jnp

class Model(eqx.Module):  # scaffolding
    w: jax.Array = eqx.field(static=True)
    b: jax.Array

@eqx.filter_jit
def apply(model, x):  # scaffolding
    return model.w * x + model.b

try:  # scaffolding
    for step in range(3):  # scaffolding
        model = Model(jnp.ones(3) * step, jnp.zeros(3))  # scaffolding
        apply(model, jnp.ones(3))
    _report({"jit(apply)"}, 3)
except Exception as e:
    print(f"ERROR {type(e).__name__}")
