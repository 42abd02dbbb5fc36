# source: https://github.com/viperleed/viperleed-jax/commit/7228d24593bcd9fc90ce6814eee94ff772aaef13
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: after the commit HARMONY takes only C and the static int LMAX and indexes the module-level DENSE_M/DENSE_L tables inside, so two displacement vectors compile it once.
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


import types  # scaffolding
# ===== src/dense_quantum_numbers.py =====
"""Module for dense quantum number indexing"""
from functools import partial
import numpy as np
from jax import config
config.update("jax_enable_x64", True)
import jax
import jax.numpy as jnp
from jax import jit, vmap

MAXIMUM_LMAX = 2  # scaffolding: the module uses 18 (a 37^2 x 37^2 table built in Python)

# TODO: come up with a faster version of this
def _dense_quantum_numbers(LMAX):
    valid_quantum_numbers = np.empty(((LMAX+1)*(LMAX+1), (LMAX+1)*(LMAX+1), 4), dtype=int)
    for L in range(LMAX+1):
        for LP in range(LMAX+1):
            for M in range(-L, L+1):
                for MP in range(-LP, LP+1):
                    valid_quantum_numbers[(L+1)*(L+1)-L+M-1][(LP+1)*(LP+1)-LP+MP-1] = [L, LP, M, MP]
    return jnp.array(valid_quantum_numbers)

_FULL_DENSE_QUANTUM_NUMBERS = _dense_quantum_numbers(2*MAXIMUM_LMAX)
DENSE_QUANTUM_NUMBERS = {
    l: _FULL_DENSE_QUANTUM_NUMBERS[:(l+1)**2,:(l+1)**2,:]
    for l in range(2*MAXIMUM_LMAX+1)
}
DENSE_L = {
    l: DENSE_QUANTUM_NUMBERS[l][:,0,0] for l in range(2*MAXIMUM_LMAX+1)
}
DENSE_M = {
    l: DENSE_QUANTUM_NUMBERS[l][:,0,2] for l in range(2*MAXIMUM_LMAX+1)
}
MINUS_ONE_POW_M = {
    l: jnp.power(-1, DENSE_M[l]) for l in range(2*MAXIMUM_LMAX+1)
}

@partial(jit, static_argnames=('LMAX',))
def map_l_array_to_compressed_quantum_index(array, LMAX):
    """Takes an array of shape (LMAX+1) with values for each L and maps it to a
    dense form of shape (LMAX+1)*(LMAX+1) with the values for each L replicated
    (2L+1) times. I.e. an array
    [val(l=0), val(l=1), val(l=2), ...] is mapped to
    [val(l=0), val(l=1), val(l=1), val(l=1), val(l=2), ...].
    """
    broadcast_l_index = DENSE_L[LMAX]
    mapped_array = jnp.asarray(array)[broadcast_l_index]
    return mapped_array


# ===== src/lib_math.py =====
from functools import lru_cache
import numpy as np
# from jax.scipy.special import sph_harm  # scaffolding: removed from jax; stand-in below
import jax
import jax.numpy as jnp
from functools import partial

# from dense_quantum_numbers import DENSE_M, DENSE_L  # scaffolding: module included above

# Spherical Bessel functions from NeuralIL
# from spherical_bessel import functions  # scaffolding: the NeuralIL Bessel package is not vendored here; stand-in below
functions = types.SimpleNamespace(create_j_l=lambda order: (lambda z: jnp.sinc(z / jnp.pi) * jnp.cos(z) ** order))  # scaffolding
sph_harm = lambda m, n, theta, phi, n_max=None: jax.scipy.special.sph_harm_y(n, m, phi, theta, n_max=n_max)  # scaffolding: old sph_harm(m, n, azimuth, polar) via sph_harm_y

# numerical epsilon to avoid division by zero
EPS = 1e-8


def _divide_zero_safe(
    numerator: jnp.ndarray,
    denominator: jnp.ndarray,
    limit_value: float = 0.0,
) -> jnp.ndarray:
    """Function that forces the result of dividing by 0 to be equal to a limit
    value in a jit- and autodiff-compatible way

    Args:
        numerator: Values in the numerator
        denominator: Values in the denominator, may contain zeros
        limit_value: Value to return where denominator == 0.0
    Returns:
        numerator / denominator with result == 0.0 where denominator == 0.0
    """
    denominator_masked = jnp.where(denominator == 0.0, 1.0, denominator)
    return jnp.where(
        denominator == 0.0,
        limit_value,
        numerator / denominator_masked,
    )


def _generate_bessel_functions(l_max):
    """Generate a list of spherical Bessel functions up to order l_max"""
    bessel_functions = []
    for order in range(l_max+1):
        bessel_functions.append(functions.create_j_l(order))
    return bessel_functions

# LMAX here for testing; TODO: remove
LMAX = 14

# generate a list of spherical Bessel functions up to order l_max
BESSEL_FUNCTIONS = _generate_bessel_functions(LMAX)


def masked_bessel(z, n1):
    return jnp.nan_to_num(
        # Needs a limit of >=10e-7 to avoid numerical noise around z=0 for
        # small values of z with imaginary component
        jnp.where(abs(z) < 10e-7,
                  jnp.zeros(shape=(n1), dtype=jnp.complex128).at[0].set(1.0),
                  bessel(z, n1))
    )

@jax.jit
def custom_spherical_jn(n, z):
    return jax.lax.switch(n, BESSEL_FUNCTIONS, z)


# need to find a better way to do this; not available in JAX yet
@partial(jax.jit, static_argnames=('n1',))
def bessel(z, n1):
    """Spherical Bessel functions. Evaluated at z, up to degree n1."""
    vmapped_custom_bessel = jax.vmap(custom_spherical_jn, (0, None))
    return vmapped_custom_bessel(jnp.arange(n1), z)


@partial(jax.jit, static_argnames=('LMAX',))
def HARMONY(C, LMAX):
    """Generates the spherical harmonics for the vector C.

    This is a python implementation of the fortran subroutine HARMONY from
    TensErLEED. It uses the jax.scipy.special.sph_harm function to produce
    equivalent results."""
    r = jnp.linalg.norm(C)
    eps_sign_z = EPS*jnp.sign(C[0])
    theta = jnp.arccos(_divide_zero_safe(C[0], jnp.linalg.norm(C), 1.0)-eps_sign_z)
    # Alternative implementation to avoid division by zero:
    # theta = jnp.arccos((C[0]+eps_sign_z)/(jnp.linalg.norm(C)+EPS)-eps_sign_z)
    phi = jnp.arctan2(C[2]+EPS, C[1]+EPS)
    return sph_harm(DENSE_M[2*LMAX], DENSE_L[2*LMAX], jnp.asarray([phi]), jnp.asarray([theta]), n_max=LMAX)


# --- scaffolding: lib_tscatf.TMATRIX_DWG's call, for two displacement vectors at LMAX=1 ---
LMAX = 1  # scaffolding
try:  # scaffolding
    for C in (jnp.array([0.1, 0.0, 0.05]), jnp.array([0.0, 0.2, 0.1])):  # scaffolding: two atom displacements
        YLM = HARMONY(C, LMAX)  # scaffolding: as in lib_tscatf.TMATRIX_DWG after the commit
    print(YLM.shape)  # scaffolding
    _report({"jit(HARMONY)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
