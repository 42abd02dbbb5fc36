# source: https://github.com/jax-ml/jax/issues/4471
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: building the mask with numpy from the static y keeps it a concrete array at trace time, so x[mask] has a known shape: one compile for two calls.
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


def create_mask_inside_jitted_function(x, y):
    mask = np.arange(x.shape[0]) < y
    return x[mask].sum()


works = jax.jit(create_mask_inside_jitted_function, static_argnums=1)

x = jnp.arange(10.0)  # scaffolding
y = 4  # scaffolding
works(x, y)
works(x + 1, y)
_report({"jit(create_mask_inside_jitted_function)"}, 2)
