# source: https://github.com/aesara-devs/aesara/issues/684
# expect: trace-time-error at line 41
# runtime: ERROR TypeError
# why: the target shape z=(2,3) is passed to the jitted a as an ordinary argument, so its entries are traced and jnp.reshape raises TypeError (shapes must be concrete) 'without static_argnums'.
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

def b(z):
    return z

def a(x, z):
    return jnp.reshape(x, b(z))

x = np.zeros(6)
z = (2,3)
try:
    jax_res = jax.jit(a)(x, z)
    _report({"jit(a)"}, 1)  # scaffolding
except Exception as e:
    print(f"ERROR {type(e).__name__}")  # scaffolding
