# source: https://github.com/aesara-devs/aesara/issues/684
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: with z marked static (static_argnums=1, which the thread names as what the snippet lacks) the tuple stays concrete and a compiles once.
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
jax_res = jax.jit(a, static_argnums=1)(x, z)  # scaffolding: the static_argnums the thread says is needed
print(jax_res)
_report({"jit(a)"}, 1)  # scaffolding
