# source: https://github.com/Ferranoski7/JAX_tutorial/blob/46ad360d380e1005e7f149454a67109571b8478b/JAX_tutorial.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: The notebook's fix replaces the Python if with jnp.where, which traces fine; calls with other int32 scalars reuse the one compilation.

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

def g(x):
    return jnp.where(x>0,x,2*x)
g_jit = jit(g)
try:
    print(g_jit(jnp.array(10)))  # Should not raise an error. 
except Exception as e:
    print("Exception! {}".format(e))
for v in (-3, 4, 5):  # scaffolding: more calls
    print(g_jit(jnp.array(v)))  # scaffolding
_report({"jit(g)"}, 4)  # scaffolding
