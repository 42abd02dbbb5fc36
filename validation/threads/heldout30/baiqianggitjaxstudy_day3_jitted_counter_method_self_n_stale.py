# source: https://github.com/BaiqiangGit/get-started-with-JAX/blob/b39693afbf8f4e23bd85748fbabb15bd6839c3b9/replicate_day3_tutorial2.py
# expect: stale-closure at line 132
# runtime: COMPILES 1 CALLS 3
# why: fast_count = jax.jit(counter.count) traces the method once, so self.n += 1 runs only at trace time and the three calls print 1, 1, 1 instead of 1, 2, 3 (the learner notes make_jaxpr shows the same cached 1); the earlier global-g demo is stale too (4 after g = 10).
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



"""
磨刀不误砍柴工
养心性不误做事
"""
import jax
import jax.interpreters
import jax.numpy as jnp
import numpy as np
from jax import grad, jit, pmap, vmap, random, make_jaxpr, config
# import matplotlib.pyplot as plt  # scaffolding: not installed (unused here)
from copy import deepcopy
from typing import Tuple, NamedTuple
import functools

"""
Purpose of tutorial:
Build complex ML model
Parallel computation on multiple devices

Note:
The problem of state vs pure functions
Jax does not love **state**, which tends to trigger impure functions

Concepts Recap:
- pure functions
- stateful variable
"""

def start_new_section():
    print()
    print('-'*80)
    # print('     \---------------------------------------------------------/')
    # print('      \------------------- [New Section] ---------------------/')
    # print("       \-----------------------------------------------------/")
    # print("        \___________________________________________________/")
        
# --------------------------------------- 

# 1) Previous Example, with globals， 
# cached version depends on 1st call

# init global
g = 0.

def impure_uses_globals(x):
    return x+g

print("First Call:", jit(impure_uses_globals)(4,)) # cached g=0.

# update now
g = 10.
print("Second Call:", jit(impure_uses_globals)(4,))


# ---------------------------------
start_new_section()

# 2）Jax PRNG state: is not stateful 
# but sample diversity is desirable

state = jax.random.PRNGKey(seed=0)
state1, state2, state3 = jax.random.split(state, 3) # 
print(state, state1, state2)

"""
Lets now explicitly address anmd understand the problem of the state!
Why?
Well, NNs love statefullness: model params, optimizer params, batchnorm, etc
and we have seen that Jax seems to have a problem with it.
"""

# ---------------------------------
start_new_section()

# 3）impure member function in python classes
class Counter:
    """ A simple Counter"""
    def __init__(self)->None:
        self.n = 0
    def count(self)->int:
        """ Increments the counter and returns the new value"""
        self.n += 1
        return self.n
    def reset(self)->None:
        self.n = 0

counter = Counter()
for _ in range(3):
    print('expected counting', counter.count())
        
counter.reset()

# so far works like a charm

# ---------------------------------
start_new_section()

# Here comes the problem:
# when jit the member function, triggers the 
# ** Impure Function Problem ** 
# self.n is external to self.count() function

fast_count = jax.jit(counter.count)
for _ in range(3):
    print('jit fn counting:', fast_count()) # cached first self.n = 0

# use jaxpr to understand
counter.reset()

# Note: suspicious leaking behaviour
# careful about jit/make_jaxpr, it creates the same cache, e.g.
# 1) first created jit fn, then make_jaxpr will simply reuse the cache 
# 2) called make_jaxpr, then jit will simply resue the existing cache

print('>> LOOKS cache shared between jit and make_jaxpr, no recompilatioin')
counter.count() 
print("current val of counter.n: ", counter.count()) 
print("this is cache, n is still 1:", make_jaxpr(counter.count)()) 

fast_count._clear_cache()

counter.count() 
counter.count() 
print("current val of counter.n: ", counter.count()) 
print("this is cache, n is still 1:", make_jaxpr(counter.count)()) 

# Note: need to know how to workaround, to delete cached jit fn


print("jitted counter.count returned the count frozen at trace time instead of 1, 2, 3")  # scaffolding
_report({"jit(count)"}, 3)  # scaffolding: fast_count() is called 3 times in the loop
