# source: https://github.com/ntrajic/Full_Stack_DL_NG_Python
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: pure_uses_internal_state appends to a local list inside jit, which is pure; the two calls have different lengths (5 and 10) and compile once each.
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
from jax import jit

def pure_uses_internal_state(array):
    array_list = []
    for i in range(len(array)):
        array_list.append(array[i])
    return array_list

array = jnp.arange(5)

jit(pure_uses_internal_state)(array)

array = jnp.arange(10)

jit(pure_uses_internal_state)(array)
_report({"jit(pure_uses_internal_state)"}, 2)  # scaffolding
