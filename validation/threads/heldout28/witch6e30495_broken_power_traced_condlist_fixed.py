# source: https://github.com/MUSTANG-SZ/WITCH/commit/6e304952efde430a23147635db558bd5ea4d87bc
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the commit drops static_argnums and jits broken_power plainly, so condlist and rbins are traced pytrees and jnp.piecewise works on them: it compiles once for two evaluations with different slopes.
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
def power(x, rbin, cur_amp, cur_pow, c):
    """
    Function which returns the powerlaw, given the bin-edge constraints. Exists to be partialed.

    Parameters:
    -----------
    x : float
        Dummy variable to be partialed over
    rbin : float
        Edge of bin for powerlaw
    cur_amp : float
        Amplitude of power law
    cur_pow : float
        Power of power law
    c : float
        Constant offset

    Returns
    -------
    tmp : float
        Powerlaw evaluated at x
    """
    tmp = cur_amp * (x**cur_pow - rbin**cur_pow) + c
    return tmp 

@jax.jit
def broken_power(rs: jax.Array,
        condlist: tuple,
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
    condlist : tuple
        tuple which enocdes which rs are evaluated by which parametric function
    rbins : jax.Array
        Array of bin edges for power laws
    amps : jax.Array
        Amplitudes of power laws
    pows : jax.Array                                                                                                                                                                                                                                                                            Exponents of power laws
    c : float
        Constant offset for powerlaws
    """
    cur_c = c #TODO: necessary?
    funclist = [] 
    for i in range(len(condlist)-1, -1, -1):   
        funclist.append(partial(power, rbin = rbins[i+1], cur_amp = amps[i], cur_pow = pows[i], c = cur_c))
        cur_c += amps[i]*(rbins[i]**pows[i]-rbins[i+1]**pows[i]) 
    return jnp.piecewise(rs, condlist, funclist)


# ---- scratch/nonpara.py (helper, data and the broken_power call; the minkasi map-making part is cut) ----
def array_to_tuple(arr):
    if isinstance(arr, list) or type(arr) is np.ndarray:
        return tuple(array_to_tuple(item) for item in arr)
    else:
        return arr

rs = np.linspace(1, 10, 1000)
pows = np.array([-1. , -1.5, -2. , -2.5, -3., -4 ])
amps = np.array([-2, -3, -4, -5, -6, 0])
rbins = (0, 1, 2, 3, 5, 7, 999999)

try:  # scaffolding
    condlist = ([(rbins[i] <= rs) & (rs < rbins[i+1]) for i in range(len(pows)-1, -1, -1)])
    condlist = array_to_tuple(condlist)
    power_law = broken_power(rs, condlist, rbins, amps, pows, 0)
    power_law = broken_power(rs, condlist, rbins, amps, pows * 1.1, 0)  # scaffolding: a second evaluation with new slopes, as a fit would do
    _report({"jit(broken_power)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
