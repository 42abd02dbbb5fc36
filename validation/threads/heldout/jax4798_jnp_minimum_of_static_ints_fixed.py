# source: https://github.com/jax-ml/jax/issues/4798
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: following the omnistaging note hawkinsp points to, the shape arithmetic uses the original numpy, so n_actual is a concrete int and foo compiles once.

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
import jax.numpy as jnp
import numpy as np
import jax
from functools import partial

@partial(jax.jit, static_argnums=(0,))
def foo(n, x):
    n_aval = jnp.shape(x)[0]
    n_actual = np.minimum(n_aval, n)
    return jnp.arange(n_actual)

n = 5
x = jnp.arange(10)
foo(n,x)
_report({"jit(foo)"}, 1)
