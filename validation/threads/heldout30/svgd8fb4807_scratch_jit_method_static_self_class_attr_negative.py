# source: https://github.com/ratschlab/projects-2020-Neural-SVGD/blob/8fb48072ef047bf369c194cf21a356fb227c6810/Scratch.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: jit(unj_method, static_argnums=(0,)) in the class body makes self static; Test instances hash by identity and the class attribute t never changes, so test.method(2) compiles once and returns 4.
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
# cell 1
import jax.numpy as np
from jax import grad, jit, vmap, random, lax
from jax import lax
# from jax.ops import index_update, index  # scaffolding: removed from JAX and unused in these cells
# import matplotlib.pyplot as plt  # scaffolding: matplotlib is not installed

# import utils  # scaffolding: unused in these cells

import time

rkey = random.PRNGKey(0)
# cell 60
class Test():
    def __init__(self):
        pass
    
    t = 2
    
    def unj_method(self, x):
        def subfun(y):
            return y**self.t
        return subfun(x)
    
    method = jit(unj_method, static_argnums=(0,))
    
# cell 61
test = Test()
test.method(2)
print(test.method(2))  # scaffolding: shows the value (4) of the cell's call
_report({"jit(unj_method)"}, 2)  # scaffolding
