# source: https://github.com/srijaniiserprinceton/qdpy-numpyro/blob/d2bed9ff957b726ca7d24f71b34df81b8ae1d954/notebooks/pytrees.ipynb
# expect: changing-static at line 65
# runtime: COMPILES 15 CALLS 15
# why: both arguments of _f_test are static and the loops pass a new (ell, ell+2) / (ell, ell+1) pair on every iteration, so each of the 15 calls compiles again (the notebook prints 'compiling' every time).
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
# cell 2
def f_test(ell1, ell2):
    print('compiling')
    ell = np.minimum(ell1, ell2)
    return 2*jnp.arange(ell)


_f_test = jax.jit(f_test, static_argnums=(0, 1))
# cell 3
for ell in np.arange(5, 10):
#    m_arr = jnp.arange(ell)
    print(ell)
    print(_f_test(ell, ell+2))
    
for ell in np.arange(5, 15):
#    m_arr = jnp.arange(ell)
    print(f'executing {ell}')
    print(_f_test(ell, ell+1))
_report({"jit(f_test)"}, 15)  # scaffolding
