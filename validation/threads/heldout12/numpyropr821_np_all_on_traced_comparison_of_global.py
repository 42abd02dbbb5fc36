# source: https://github.com/pyro-ppl/numpyro/pull/821
# expect: trace-time-error at line 36
# runtime: ERROR TracerBoolConversionError
# why: y is a concrete global jnp array, so not_jax_tracer(y) passes, but `y <= 0` is a jax operation and is staged inside the jitted f; np.all of that traced bool then hits `if`, raising TracerBoolConversionError.

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
from numpyro.util import not_jax_tracer
import numpy as np
import jax.numpy as jnp

def f(x):
    if not_jax_tracer(y):
        if np.all(y <= 0):
            print("nooo")
    return x + y

y = jnp.arange(10.)
try:  # scaffolding
    jax.jit(f)(1)
    print("no error")  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
