# source: https://github.com/hsf-india-may2023/JAX_in_HEP
# expect: trace-time-error at line 35
# runtime: ERROR NonConcreteBooleanIndexError
# why: fn_bad filters sum_arr with the boolean mask sum_arr >= 0.0, whose output size depends on traced values, so the @jit call raises NonConcreteBooleanIndexError (the lecture: 'not allowed!').
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
from jax import jit
import jax.numpy as jnp

@jit
def fn_bad(tuple_arr):
    sum_arr = tuple_arr ** 2 - tuple_arr ** 3 - tuple_arr
    sum_arr = sum_arr[sum_arr>=0.0]          # This forces the traced function to take a specific value - not allowed!
    return jnp.sum(sum_arr)       
# We cannot have output with shapes not known explicitly at compile time
try:  # scaffolding
    print(fn_bad(jnp.ones(100)))
    _report({"jit(fn_bad)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
