# source: https://github.com/jax-ml/jax/issues/8572
# expect: trace-time-error at line 37
# runtime: ERROR TracerArrayConversionError
# why: the input check uses numpy on the grid points, which are traced inside the jitted function, so np.diff raises TracerArrayConversionError.

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
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
import numpy as np


@jax.jit  # scaffolding: a jitted setup step of the RegularGridInterpolator port
def check_points(points):  # scaffolding
    for i, p in enumerate(points):  # scaffolding
        if not np.all(np.diff(p) > 0.):
            raise ValueError(f"the points in dimension {i} must be strictly ascending")
    return points  # scaffolding


try:  # scaffolding
    check_points((jnp.arange(4.0), jnp.arange(3.0)))  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
