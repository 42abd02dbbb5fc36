# source: https://github.com/BaiqiangGit/get-started-with-JAX/blob/b39693afbf8f4e23bd85748fbabb15bd6839c3b9/replicate_day3_tutorial2.py
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: CounterV2.count takes the counter state as an argument and returns the new state, so the jitted count compiles once and the three calls print 1, 2, 3.
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


def start_new_section():
    print()
    print('-'*80)
    # print('     \---------------------------------------------------------/')
    # print('      \------------------- [New Section] ---------------------/')
    # print("       \-----------------------------------------------------/")
    # print("        \___________________________________________________/")
        

# (the file's earlier sections, the global-g and Counter demos, are cut: they are the paired positive)
# ---------------------------------
start_new_section()

# Solution for impure member function: 
# General idea: pass the state as fn input, and return in output

CounterState = int # implemented simply as an integer 

class CounterV2:

    def count(self, n:CounterState) -> Tuple[int, CounterState]:
        """
        you could just return n+1, but here we separate its role as 
        the output and as the counter state for didactic purposes,
        as the output may be some arbitrary fn of state in general case.
        """
        return n+1, n+1
    
    def reset(self)->CounterState:
        return 0
    
counter = CounterV2()
state = counter.reset() # notic how reset now returns state (external vs internal imp)

for _ in range(3): # works like a charm pre-jit
    value, state = counter.count(state) # looks familiar ?? split random keys ?
    print('pre-jit value:', value)

# ---------------------------------------
state = counter.reset()
fast_count = jax.jit(counter.count)
for _ in range(3):
    value, state = fast_count(state)
    print('jit value:', value)



_report({"jit(count)"}, 3)  # scaffolding: fast_count(state) is called 3 times
