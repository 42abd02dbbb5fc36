# source: https://github.com/jax-ml/jax/issues/4471
# expect: unhashable-static at line 42
# runtime: ERROR ValueError
# why: the reporter's workaround, passing the numpy boolean mask as a static argument, no longer works: a numpy array is not hashable, so jit raises ValueError at the call.
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
import numpy as np


def mask_as_static_argument(x, mask):
    return x[mask].sum()


works = jax.jit(mask_as_static_argument, static_argnums=1)

x = jnp.arange(10.0)  # scaffolding
mask = np.arange(10) < 4  # scaffolding
try:  # scaffolding
    works(x, mask)
    _report({"jit(mask_as_static_argument)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
