# source: https://github.com/CosmoStat/jax-lensing/commit/078e6bfe7ed672179a39829f8914ff77adfe80d2
# expect: trace-time-error at line 123
# runtime: ERROR ConcretizationTypeError
# why: spin_wiener_filter_jit is @jit with no static arguments and loops `for i in jnp.arange(iterations)`; the notebook passes iterations=20, which is traced, so jnp.arange raises ConcretizationTypeError.

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


# --- end harness ---
import jax.numpy as jnp
from jax import grad, jit, vmap
import numpy as np
import jax

# ---- jax_lensing/inversion.py ----
import jax.numpy as jnp_inv  # scaffolding: inversion.py imports jax.numpy as "np" (np. renamed jnp_inv. below, as numpy is "np" in wiener_sampling.py)
# -*- coding: utf-8 -*-
"""
Code adapted from lenspack (Austin Peel, Cosmostat) for jax compatibiliy.
https://github.com/austinpeel/lenspack/blob/master/lenspack/image/inversion.py
"""

import jax
from jax import random

def ks93(g1, g2):
    # Check consistency of input maps
    assert g1.shape == g2.shape

    # Compute Fourier space grids
    (nx, ny) = g1.shape
    k1, k2 = jnp_inv.meshgrid(jnp_inv.fft.fftfreq(ny), jnp_inv.fft.fftfreq(nx))

    # Compute Fourier transforms of g1 and g2
    g1hat = jnp_inv.fft.fft2(g1)
    g2hat = jnp_inv.fft.fft2(g2)

    # Apply Fourier space inversion operator
    p1 = k1 * k1 - k2 * k2
    p2 = 2 * k1 * k2
    k2 = k1 * k1 + k2 * k2
    #k2[0, 0] = 1  # avoid division by 0
    k2 = k2.at[0, 0].set(1.)  # scaffolding: was jax.ops.index_update(k2, jax.ops.index[0, 0], 1.) (removed from jax)
    kEhat = (p1 * g1hat + p2 * g2hat) / k2
    kBhat = -(p2 * g1hat - p1 * g2hat) / k2


    # Transform back to pixel space
    kE = jnp_inv.fft.ifft2(kEhat).real
    kB = jnp_inv.fft.ifft2(kBhat).real

    return kE, kB

def ks93inv(kE, kB):
    # Check consistency of input maps
    assert kE.shape == kB.shape

    # Compute Fourier space grids
    (nx, ny) = kE.shape
    k1, k2 = jnp_inv.meshgrid(jnp_inv.fft.fftfreq(ny), jnp_inv.fft.fftfreq(nx))

    # Compute Fourier transforms of kE and kB
    kEhat = jnp_inv.fft.fft2(kE)
    kBhat = jnp_inv.fft.fft2(kB)

    # Apply Fourier space inversion operator
    p1 = k1 * k1 - k2 * k2
    p2 = 2 * k1 * k2
    k2 = k1 * k1 + k2 * k2
    #k2[0, 0] = 1  # avoid division by 0
    k2 = k2.at[0, 0].set(1)  # scaffolding: was jax.ops.index_update(k2, jax.ops.index[0, 0], 1) (removed from jax)
    g1hat = (p1 * kEhat - p2 * kBhat) / k2
    g2hat = (p2 * kEhat + p1 * kBhat) / k2

    # Transform back to pixel space
    g1 = jnp_inv.fft.ifft2(g1hat).real
    g2 = jnp_inv.fft.ifft2(g2hat).real

    return g1, g2


# ---- jax_lensing/wiener_sampling.py ----
# doesn't work :/
@jit
def spin_wiener_filter_jit(data_q, data_u, ncov_diag_Q,ncov_diag_U, input_ps_map_E, input_ps_map_B, iterations=10, verbose=False):
    """
    Broken :/
    """
    print('This currently does not work')
    size = (data_q.real).shape[0]
    tcov_diag = jnp.min(jnp.array([ncov_diag_Q, ncov_diag_U]))
    tcov_ft = tcov_diag#/(size**2.)
    scov_ft_E = jnp.fft.fftshift(input_ps_map_E)
    scov_ft_B = jnp.fft.fftshift(input_ps_map_B)
    s_q = jnp.zeros(data_q.shape)
    s_u = jnp.zeros(data_q.shape)

    q_operationA = (tcov_diag/ncov_diag_Q)*data_q
    u_operationA = (tcov_diag/ncov_diag_U)*data_u

    q_operationB = ((ncov_diag_Q-tcov_diag)/ncov_diag_Q)
    u_operationB = ((ncov_diag_U-tcov_diag)/ncov_diag_U)

    for i in jnp.arange(iterations):
        # in Q, U representation (fails here)
        t_Q  = q_operationA + jnp.multiply(q_operationB,s_q)
        t_U  = u_operationA + jnp.multiply(u_operationB,s_u)
        # in E, B representation
        t_E, t_B = ks93(t_Q,t_U)
        s_E  = (scov_ft_E/(scov_ft_E+tcov_ft))*jnp.fft.fft2(t_E)
        s_B  = (scov_ft_B/(scov_ft_B+tcov_ft))*jnp.fft.fft2(t_B)
        s_E = jnp.fft.ifft2(s_E)
        s_B = jnp.fft.ifft2(s_B)
        # in Q, U representation
        s_q, s_u = ks93inv(s_E,s_B)

    return s_q,s_u


# --- usage as in notebooks/wiener_sampler.ipynb (the FITS maps replaced by random maps) ---
import numpy as onp  # scaffolding
rng = onp.random.default_rng(0)  # scaffolding
size = 64  # scaffolding: the notebook's maps are 360x360
test_e = rng.normal(0, 0.3, (size, size, 2))  # scaffolding: was ktng_cosmos_e360.fits
test_kappa = rng.normal(0, 0.05, (size, size))  # scaffolding: was ktng_cosmos_kappa360.fits
std_e1 = std_e2 = 0.3  # scaffolding
mask = onp.ones((size, size))  # scaffolding
ncov_diag_e1 = onp.ones(test_kappa.shape)*std_e1*std_e1*mask + onp.abs(1.-mask)*1e10
ncov_diag_e2 = onp.ones(test_kappa.shape)*std_e2*std_e2*mask + onp.abs(1.-mask)*1e10
ps_map = jnp.asarray(onp.abs(rng.normal(1e-4, 1e-5, (size, size))))  # scaffolding: was spectral.make_power_map(ps, 360)
try:  # scaffolding
    wf_e1, wf_e2 = spin_wiener_filter_jit(test_e[:,:,0]+1j*test_kappa*0., test_e[:,:,1]+1j*test_kappa*0., ncov_diag_e1,ncov_diag_e2, ps_map, ps_map*0., iterations=20)
    _report({"jit(spin_wiener_filter_jit)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
