# source: https://github.com/jax-ml/jax/issues/7542
# expect: trace-time-error at line 35
# runtime: ERROR ConcretizationTypeError
# why: jnp.apply_along_axis vmaps func1d over the rows, and the one-argument jnp.where (nonzero) has a data-dependent output shape, so tracing it under the vmap raises.

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
import numpy as np
import jax.numpy as jnp

x = np.array([[0, 0, 1, 1], [1, 1, 0, 0], [0, 1, 1, 0]])
print(np.apply_along_axis(np.where, 1, x).squeeze())
try:  # scaffolding
    print(jnp.apply_along_axis(jnp.where, 1, x).squeeze())
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
