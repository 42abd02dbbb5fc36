# source: https://github.com/BaiqiangGit/get-started-with-JAX/blob/03de997de63863fe0decd86a66259052b834895d/replicate_day2_tutorial1.py
# expect: stale-closure at line 91
# runtime: COMPILES 2 CALLS 3
# why: impure_uses_globals reads the global g; after g = 10 the second jitted call hits the cache compiled with g = 0 and prints 4.0 instead of 14.0 (only the third call, with a new shape, retraces and sees g); the fori_loop body's next(iterator) is likewise read once at trace time (prints 0, not 45).
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

# (lines 16-255 of the file cut: the notes, helpers, failure demos and the reshape fix; the file goes on with Gotchas #2-#4 after this section)

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

# Example 2: 
# it is bad and wrong idea to use global variables
# jit will cache the global variable, and reuse it, even it's updated already
g = 0.
def impure_uses_globals(x):
    return x + g # violating both #1 and #2

# JAX captures the value of global parameter during the first run
print("First Call:", jax.jit(impure_uses_globals)(4.))

# Let's updated the global
g = 10.

# Subsequent runs may silently use the cached value of the globals
print("Second Call:", jax.jit(impure_uses_globals)(4.))

# JAX re-runs the python function when the type/shape of the arguments changes
# This will end up reading the latest value of the global

# let's change type:

print("Third Call:", jax.jit(impure_uses_globals)(jnp.array([4,])))

""" Outputs: 
First Call: 4.0
Second Call: 4.0
Third Call: [14.]
"""

#----------------------------------
# Example 3: very important! Haiku/Flax are basically built upon this idea

def pure_uses_internal_state(x):
    state = dict(even=0, odd=0)
    for i in range(10): # not accessing any global variables
        state['even' if i%2 == 0 else 'odd'] += x
    return state['even'] + state['odd']

# this compiles without error
print(jax.jit(pure_uses_internal_state)(5.)) 

#----------------------------------
# Example 4: iterators are a no no !
# lax.fori_loop: smarter way of for loops, which works with xla
# https://jax.readthedocs.io/en/latest/_autosummary/jax.lax.fori_loop.html
# similarly for lax.scan, lax.cond, etc

# this works
array = jnp.arange(10)
print(jax.lax.fori_loop(lower=0, upper=10,body_fun= lambda i,x : x+array[i], init_val=0)) # expects result 45

# this does not work: iterators are stateful (value changes), violating purity constraint
iterator = iter(jnp.arange(10)) # only cache the first run value: 0
print(lax.fori_loop(0, 10, lambda i,x: x+next(iterator), 0)) # expected result 0

"""
output:
45
0
"""


print("Second call above returned the value for g = 0 although g = 10 (fresh result 14.0)")  # scaffolding
_report({"jit(impure_uses_globals)"}, 3)  # scaffolding: impure_uses_globals is called 3 times
