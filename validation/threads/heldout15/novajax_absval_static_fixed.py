# source: https://github.com/Vodolay/NovaJax
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the notebook's fix jax.jit(absval, static_argnums=(0,)) traces on the concrete float, so the if works and absval compiles once.
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

def absval(x):
    print(type(x))
    if x >= 0:
        return x
    else:
        return -x

absval_con = jax.jit(absval, static_argnums=(0,))
print(absval_con(-3.2))
_report({"jit(absval)"}, 1)  # scaffolding
