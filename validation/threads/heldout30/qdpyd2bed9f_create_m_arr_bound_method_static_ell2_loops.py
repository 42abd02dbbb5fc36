# source: https://github.com/srijaniiserprinceton/qdpy-numpyro/blob/d2bed9ff957b726ca7d24f71b34df81b8ae1d954/notebooks/pytrees.ipynb
# expect: changing-static at line 95
# runtime: COMPILES 9 CALLS 18
# why: the bound method create_m_arr is jitted with ell2 static (it sizes jnp.arange), and the loops pass ell2 = 3..9 and then 10, 11: every new value compiles again, 9 compiles for 18 calls ('Partial compilation, partial execution').
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
# from IPython.display import set_matplotlib_formats  # scaffolding: plotting setup cut
from jax.scipy.special import logsumexp
# import matplotlib.pyplot as plt  # scaffolding: matplotlib is not installed
from jax import random, vmap
import jax.numpy as jnp
import jax
# import seaborn as sns  # scaffolding: seaborn is not installed
# import pandas as pd  # scaffolding: pandas is not installed
import numpy as np
import time
import os

import numpyro
from numpyro.diagnostics import hpdi
import numpyro.distributions as dist
from numpyro.infer import MCMC, NUTS
from numpyro import handlers

# plt.style.use('bmh')  # scaffolding: plotting setup cut
# if "NUMPYRO_SPHINXBUILD" in os.environ:  # scaffolding: plotting setup cut
#     set_matplotlib_formats('svg')  # scaffolding: plotting setup cut

# assert numpyro.__version__.startswith('0.6.0')  # scaffolding: numpyro 0.22 is installed
#numpyro.set_platform("gpu")

numpyro.set_platform("cpu")
numpyro.set_host_device_count(5)
# cell 4
import jax.numpy as np
import jax
from jax import jit
from jax.tree_util import register_pytree_node
from jax.tree_util import tree_flatten, tree_unflatten

class test_class():
    def __init__(self, ell1, ell2):
        self.ell1 = ell1
        self.ell2 = ell2

    def create_m_arr(self, ell2):
        print('Compiling ', self.ell1, ell2)
        m_arr = jnp.arange(-ell2, ell2+1) + self.ell1
        return m_arr
    
    def create_m2_arr(self):
        print('Compiling ', self.ell1)
        m_arr = jnp.arange(-self.ell1, self.ell2+1)
        return m_arr    
    
    def update_ell1(self):
        print('Compiling ', self.ell1, self.ell2)
        return test_class(self.ell1+1, self.ell2)
    
    def update_ell2(self):
        print('Compiling ', self.ell1, self.ell2)
        return test_class(self.ell1, self.ell2+1)

# scaffolding: the cell's commented-out RegisteredTest pytree registration (a ''' string, never run) is cut

# creating instance of the class                                             
try_class = test_class(5, 12)

# jitting function of the class                                              
# _create_m_arr = jax.jit(try_class.create_m_arr, static_argnums=(0,))
_create_m_arr = jax.jit(try_class.create_m_arr, static_argnums=(0, ))
_create_m2_arr = jax.jit(try_class.create_m2_arr)
print('asdf')

for ell in range(3,10):
    __ = _create_m_arr(ell).block_until_ready()
    print('Executing ', try_class.ell1, __)

print('--------Partial compilation, partial execution-------')
for ell in range(5,12):
    try_class.ell = ell
    #__ = jax.jit(try_class.create_m_arr)(ell)
    __ = _create_m_arr(ell).block_until_ready()
    print('Executing ', try_class.ell1, __)
    
print("---------Only execution after this-------")
for ell in range(4, 8):
    try_class.ell = ell
    #__ = jax.jit(try_class.create_m_arr)(ell)
    __ = _create_m_arr(ell).block_until_ready()
    print('Executing ', try_class.ell1, __)
_report({"jit(create_m_arr)"}, 18)  # scaffolding
