# source: https://github.com/MonitSharma/parallel_adventures
# expect: none
# runtime: COMPILES 2 CALLS 3
# why: jit(impure_print_side_effect) is re-wrapped at each call, but the wrappers share one cache: the two float calls compile once (the print runs only while tracing) and the array call compiles a second time for its new type.
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
import numpy as np
from jax import jit
from jax import random
from jax import lax
import jax
import jax.numpy as jnp


def impure_print_side_effect(x):
    print("This is a side effect")
    return x + 1


print(f" First call: {jit(impure_print_side_effect)(4.)}")
print(f"Second call: {jit(impure_print_side_effect)(5.)}")
print("Third call, different type : ", jit(impure_print_side_effect)(jnp.array([6.])))
_report({"jit(impure_print_side_effect)"}, 3)  # scaffolding
