# source: https://github.com/BaiqiangGit/get-started-with-JAX/blob/03de997de63863fe0decd86a66259052b834895d/replicate_day2_tutorial1.py
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: jax.jit(impure_print_side_effect) is rebuilt at each of the 3 calls, but it wraps the same module-level function with the same float argument type, so the cache is shared and it compiles (and prints its side effect) only once.
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



import jax
import numpy as np
from timeit import Timer

from jax import random
from jax import make_jaxpr # jax expression
from jax import numpy as jnp

from jax import jacfwd
from jax import jacrev
from jax import jit
from jax import grad
from jax import vmap
from jax import pmap
from jax import lax 

# (lines 16-255 of the file cut; the file goes on with Examples 2-4 of 'pure functions', the stale-global case from this file)

#----------------------------------

# Gotcha #1: pure functions
# jax is designed to work only on pure functions

# Pure functions ? informal defintion here:
# 1. all input data is passed through the function arguments, 
#    all the results are output through the function results
# 2. a pure function will always return the same result, ]
#    if invoked with the same inputs

#----------------------------------

# Example 1
def impure_print_side_effect(x):
    print('Executing function') # violating #1, via print than return
    return x
# the side effect appear during the first run
print("First Call:", jax.jit(impure_print_side_effect)(4.))

# subsequent runs with parameters of some type and shape 
# may not show the side-effect
# this is because JAX now invokes a cached compiled version 
# of the function for the underlying type and shape 
print("Second Call:", jax.jit(impure_print_side_effect)(5.))

# JAX re-runs the python function when the type/shape of argument changes
print("Third Call:", jax.jit(impure_print_side_effect)(5.))

#----------------------------------

_report({"jit(impure_print_side_effect)"}, 3)  # scaffolding: jax.jit(impure_print_side_effect) is built and called 3 times
