# source: https://github.com/jax-ml/jax/issues/24740
# expect: trace-time-error at line 36
# runtime: ERROR TracerBoolConversionError
# why: Under vmap, z is a batched tracer; `if (jnp.abs(z) > 2.0)` asks Python for a single truth value and raises TracerBoolConversionError while tracing mandle_brot.

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
from jax import numpy as jnp
from jax import jit,vmap
def mandle_brot(c,max_iter):
    z= jnp.array([0.0+0.0j])
    for i in range(max_iter):
        z=z*z+c
        if(jnp.abs(z)>2.0):
            return jnp.array([i])
    return jnp.array([max_iter])
z = jnp.complex64(-0.75 + 0.1j)  # scaffolding: was jnp.complex_(-0.75 + 0.1j)
mandle_brot(z,100)
Z= jnp.array([z,z,z,z])
mandle_brot_vmap = vmap(mandle_brot,in_axes=(0,None))
try:  # scaffolding
    mandle_brot_vmap(Z,10) # error from this part
    print("COMPILES 0 CALLS 1")  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
