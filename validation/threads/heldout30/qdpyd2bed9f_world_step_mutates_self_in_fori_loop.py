# source: https://github.com/srijaniiserprinceton/qdpy-numpyro/blob/d2bed9ff957b726ca7d24f71b34df81b8ae1d954/notebooks/pytrees.ipynb
# expect: trace-time-error at line 68; stale-closure at line 61
# runtime: ERROR TypeError
# why: World.step, the fori_loop body, returns self.v (shape (2,)) for a scalar carry 0.01, so tracing run raises TypeError (carry types differ); it also writes loop tracers into world.v/world.p, which leak out of the loop (UnexpectedTracerError, as the notebook recorded in 2021, once the carry is fixed).
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
# cell 6
class World:
    def __init__(self, p, v):
        self.p = p
        self.v = v

    def step(self, i, dt):
        a = - 9.8
        self.v += a * dt
        self.p += self.v *dt
        return self.v

def run(init_p, init_v):
    print('compiling')
    world = World(init_p, init_v)
    jax.lax.fori_loop(0, 1000, world.step,
                     0.01)
    return world.p, world.v

_run = jax.jit(run)

try:  # scaffolding
    t1 = time.time()
    out = _run(np.array([0, 0]), np.array([1, 1]))
    t2 = time.time()
    print(f'Time taken = {(t2-t1):.3f} seconds')
    print(out)

    t1 = time.time()
    out = _run(np.array([30000.0, 2.0]), np.array([5., 1000.]))
    t2 = time.time()
    print(f'Time taken = {(t2-t1):.3f} seconds')
    print(out)

    t1 = time.time()
    out = _run(np.array([301200.0, 2.0]), np.array([1234., 1000.]))
    t2 = time.time()
    print(f'Time taken = {(t2-t1):.3f} seconds')
    print(out)
    _report({"jit(run)"}, 3)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
