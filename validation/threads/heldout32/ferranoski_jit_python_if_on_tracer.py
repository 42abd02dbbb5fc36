# source: https://github.com/Ferranoski7/JAX_tutorial/blob/46ad360d380e1005e7f149454a67109571b8478b/JAX_tutorial.ipynb
# expect: trace-time-error at line 35
# runtime: ERROR TracerBoolConversionError
# why: f branches with a Python if on its argument, which is a tracer under jit, so the first call raises TracerBoolConversionError (the notebook cell demonstrates exactly this).

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
from jax import jit

# Condition on value of x.

def f(x):
    if x > 0:
        return x
    else:
        return 2 * x
    
f_jit = jit(f)
try:
    f_jit(10)  # Should raise an error. 
except Exception as e:
    print("Exception! {}".format(e))
    print("ERROR", type(e).__name__)  # scaffolding
