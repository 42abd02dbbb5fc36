# source: https://github.com/patrick-kidger/equinox/issues/798
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: With the array kept as an ordinary (dynamic) field, it is a traced leaf; rebuilding the module with new values keeps the same structure, shapes and dtypes, so the three calls share one compile.

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
    w: jax.Array
    b: jax.Array

@eqx.filter_jit
def apply(model, x):  # scaffolding
    return model.w * x + model.b

for step in range(3):  # scaffolding
    model = Model(jnp.ones(3) * step, jnp.zeros(3))  # scaffolding
    apply(model, jnp.ones(3))  # scaffolding
_report({"jit(apply)"}, 3)  # scaffolding
