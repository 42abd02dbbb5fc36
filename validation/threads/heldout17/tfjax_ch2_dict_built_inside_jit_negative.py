# source: https://github.com/AakashKumarNain/TF_JAX_tutorials/blob/main/src/notebooks/jax_tutorials/chapter_2_pure_functions.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the dict and the Python loop live only inside the traced function (len(array) is static), so the function is pure: jit(pure_function_with_stateful_obejcts) compiles once for its 2 calls and returns the dict of arrays.
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


import numpy as np

import jax
import jax.numpy as jnp

from jax import grad
from jax import jit
from jax import lax
from jax import random

# Function that uses stateful objects but internally and is still pure
def pure_function_with_stateful_obejcts(array):
    array_dict = {}
    for i in range(len(array)):
        array_dict[i] = array[i] + 10
    return array_dict


array = jnp.arange(5)

# First call to the function
print(f"Value returned on first call: {jit(pure_function_with_stateful_obejcts)(array)}")

# Second call to the fucntion with different value
print(f"\nValue returned on second call: {jit(pure_function_with_stateful_obejcts)(array)}")
_report({"jit(pure_function_with_stateful_obejcts)"}, 2)  # scaffolding
