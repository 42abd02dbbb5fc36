# source: https://github.com/MUSTANG-SZ/WITCH/commit/24462bbab3caa6f256e0f02b80f29f5832bd787e
# expect: trace-time-error at line 64
# runtime: ERROR ConcretizationTypeError
# why: the jitted broken_power builds its condlist with one-argument jnp.where (nonzero) on the traced rs, whose output size depends on the data, so tracing raises ConcretizationTypeError.
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



# ---- witch/nonparametric.py ----
import warnings 
import numpy as np

import jax
import jax.numpy as jnp

from functools import partial

# from . import utils as wu  # scaffolding: defined in this file
# from .grid import transform_grid  # scaffolding: defined in this file


@jax.jit
def broken_power(rs: jax.Array,
        rbins: jax.Array,
        amps: jax.Array,
        pows:jax.Array,
        c: float,
        ) -> jax.Array:
    """
    Function which returns a broken powerlaw evaluated at rs.

    Parameters:
    -----------
    rs : jax.Array
        Array of rs at which to compute pl.
    rbins : jax.Array
        Array of bin edges for power laws
    amps : jax.Array
        Amplitudes of power laws
    pows : jax.Array                                                                                                                                                                                                                                                                            Exponents of power laws
    c : float
        Constant offset for powerlaws
    """
    #condlist = [(rbins[i] <= rs) & (rs < rbins[i+1]) for i in range(len(pows)-1, -1, -1)] #TODO: Replace me with jnp.where 
    condlist = [jnp.where((rbins[i] <= rs) & (rs < rbins[i+1])) for i in range(len(pows)-1, -1, -1)]
    cur_c = c
    funclist = [] 
    def power(x, rbin, cur_amp, cur_pow, c):
        return cur_amp * (x**cur_pow - rbin**cur_pow) + c
    for i in range(len(condlist)-1, -1, -1):   
        funclist.append(partial(power, rbin = rbins[i+1], cur_amp = amps[i], cur_pow = pows[i], c = cur_c))
        cur_c += amps[i]*(rbins[i]**pows[i]-rbins[i+1]**pows[i]) 
    return jnp.piecewise(rs, condlist, funclist)



# ---- scratch/nonpara.py (the data and the direct broken_power call; the minkasi map-making part is cut) ----
rs = np.linspace(1, 10, 1000)
pows = np.array([-1. , -1.5, -2. , -2.5, -3., -4 ])
amps = np.array([-2, -3, -4, -5, -6, 0])
rbins = np.array([0, 1, 2, 3, 5, 7, 999999])

try:  # scaffolding
    power_law = broken_power(rs, rbins, amps, pows, 0)
    _report({"jit(broken_power)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
