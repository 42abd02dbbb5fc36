# source: https://github.com/GW-JAX-Team/ripple/commit/f488b617b00a1a1954ad0d0de6bb323388970efe
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: The fix passes dL=theta_extrinsic[0] as a traced value, so the jitted waveform compiles once for all parameter draws.

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
"""This file implements the NRTidalv2 corrections, see http://arxiv.org/abs/1905.06011"""

# FIXME make sure that jax differentiable is OK

import jax
import jax.numpy as jnp
import numpy as np  # scaffolding

Array = jnp.ndarray  # scaffolding: was `from ..typing import Array`

# scaffolding: ripple.constants (values copied from src/ripple/constants.py)
EulerGamma = 0.577215664901532860606512090082402431
MSUN = 1.988409902147041637325262574352366540e30
G = 6.67430e-11
C = 299792458.0
PI = 3.141592653589793238462643383279502884
gt = G * MSUN / (C ** 3.0)
m_per_Mpc = 3.085677581491367278913937957796471611e22


def gen_IMRPhenomD(f, params, f_ref):  # scaffolding: stand-in for ripple's IMRPhenomD BBH strain
    m1, m2, chi1, chi2, dist_mpc, tc, phic = params
    M_s = (m1 + m2) * gt
    amp = (M_s ** (5.0 / 6.0)) * f ** (-7.0 / 6.0) / (dist_mpc * m_per_Mpc / C)
    phase = 2 * PI * f * tc - phic + (3.0 / 128.0) * (PI * M_s * f) ** (-5.0 / 3.0)
    return amp * jnp.exp(-1j * phase)


# Eq. (20)
C_1 = 3115./1248.
C_THREE_HALVES = - PI
C_2 = 28024205./3302208.
C_FIVE_HALVES = - 4283. * PI / 1092.

# Eq. (21)

N_FIVE_HALVES = 90.550822
N_3 = -60.253578
D_1 = -15.111208
D_2 = 8.0641096

# Combinations, see Eq. (19)

N_1 = C_1 + D_1
N_THREE_HALVES = (C_1 * C_THREE_HALVES - C_FIVE_HALVES - C_THREE_HALVES * D_1 + N_FIVE_HALVES) / C_1
N_2 = C_2 + C_1 * D_1 + D_2
D_THREE_HALVES = - (C_FIVE_HALVES + C_THREE_HALVES * D_1 - N_FIVE_HALVES) / C_1

# D: just below Eq. (24)

D = 13477.8

def _get_kappa_eff_term(theta):
    """
    Internal function that computes one term for kappa_eff, then can swap arguments around for the other kappa term.
    """
    m1, m2, chi1, chi2, lambda1, lambda2 = theta
    
    m1_s = m1 * gt
    m2_s = m2 * gt
    M_s = m1_s + m2_s
    eta = m1_s * m2_s / (M_s**2.0)
    return (3./13.) * (1. + 12. * (m2_s / m1_s)) * (m1_s/M_s) ** 5. * lambda1
    

def get_kappa_eff(theta):
    # Sum the two terms to get total kappa
    m1, m2, chi1, chi2, lambda1, lambda2 = theta
    # Parameters with A <-> B
    theta     = jnp.array([m1, m2, chi1, chi2, lambda1, lambda2])
    theta_rev = jnp.array([m2, m1, chi2, chi1, lambda2, lambda1])
    
    return _get_kappa_eff_term(theta) + _get_kappa_eff_term(theta_rev)
    
    
def get_tidal_phase(f: Array, theta: Array, kappa_T_eff: float) -> Array:
    
    # Mass variables
    m1, m2, _, _, _, _ = theta 
    m1_s = m1 * gt
    m2_s = m2 * gt
    M_s = m1_s + m2_s
    eta = m1_s * m2_s / (M_s**2.0)
    
    # Build the pade approximant (see Eq. (18) - (21) in NRTidal)
    
    pade_num = 1. + N_1 * f + N_THREE_HALVES * f ** (3. / 2.) + N_2 * f ** 2. + N_FIVE_HALVES * f ** (5. / 2.) + N_3 * f ** 3
    pade_denom = 1. + D_1 * f + D_THREE_HALVES * f ** (3. / 2.) + D_2 * f ** (2.)
    pade = pade_num / pade_denom
    
    # Complete result
    psi_T = - kappa_T_eff * (39./(16. * eta)) * f ** (5./2.) * pade
    
    return psi_T


def _get_spin_phase_correction_term(f: Array, theta: Array) -> Array:
    # Already rescaled below in global function
    m1, m2, chi1, chi2, lambda1, lambda2 = theta 
    
    # Convert the mass variables
    m1_s = m1 * gt
    m2_s = m2 * gt
    M_s = m1_s + m2_s
    eta = m1_s * m2_s / (M_s**2.0)
    
    # Compute the auxiliary variables
    X_1 = m1_s / M_s
    X_2 = m2_s / M_s
    
    log_lambda1 = jnp.log(lambda1)
    
    log_C_Q  = 0.1940 + 0.09163 * log_lambda1 + 0.04812 * log_lambda1 ** 2. - 0.004286 * log_lambda1 ** 3 + 0.00012450 * log_lambda1 ** 4
    log_C_Oc = 0.003131 + 2.071 * log_C_Q - 0.7152 * log_C_Q ** 2 + 0.2458 * log_C_Q ** 3 - 0.03309 * log_C_Q ** 4
    
    C_Q_hat  = jnp.exp(log_C_Q)
    C_Oc_hat = jnp.exp(log_C_Oc)
    
    # print(C_Q_hat)
    # print(C_Oc_hat)
    
    # Get the coefficients of the corrections
    psi_SS_2  = - 50. * C_Q_hat * X_1 ** 2 * chi1 ** 2
    psi_SS_3  = (5. / 84.) * (9407. + 8218. * X_1 - 2016. * X_1 ** 2) * C_Q_hat * X_1 ** 2 * chi1 ** 2
    psi_SS_35 = 10. * ( ( X_1 ** 2 + (308. / 3.) * X_1 ) * chi1 + (X_2 ** 2 - 89. / 3. * X_2) * chi2 - 40. * PI) * C_Q_hat * X_1 ** 2 * chi1 ** 2 - 440. * C_Oc_hat * X_1 ** 3 * chi1 ** 3
    
    psi_SS = (3. / (128. * eta)) * (psi_SS_2 * f ** (-1./2.) + psi_SS_3 * f ** (1./2.) + psi_SS_35 * f)

    # FIXME - these corrections are wrong, have to double check then remove this override
    # Override - making SS contribution zero
    psi_SS = jnp.zeros_like(f)
    
    return psi_SS


def get_spin_phase_correction(f: Array, theta: Array) -> Array:
    
    m1, m2, chi1, chi2, lambda1, lambda2 = theta 
    
    theta     = jnp.array([m1, m2, chi1, chi2, lambda1, lambda2])
    theta_rev = jnp.array([m2, m1, chi2, chi1, lambda2, lambda1])
    
    return _get_spin_phase_correction_term(f, theta) + _get_spin_phase_correction_term(f, theta_rev)
    
    
def get_tidal_amplitude(f: Array, theta: Array, kappa_T_eff: float, dL: float =1):
    
    # Mass variables
    m1, m2, _, _, _, _ = theta 
    m1_s = m1 * gt
    m2_s = m2 * gt
    M_s = m1_s + m2_s
    eta = m1_s * m2_s / (M_s**2.0)
    
    # Build pade approximant
    pade_num = 1. + (449. / 108.) * f + (22672. / 9.) * f ** 2.89
    pade_denom = 1. + D * f ** 4
    pade = pade_num / pade_denom
    
    # Result
    A_T = - ( (5. * PI * eta) / (24.)) ** (1. / 2.) * 9 * M_s**2  * kappa_T_eff * f ** (13. / 4.) * pade
    # FIXME check if this is correct? Copied from IMRPhenomD
    dist_s = (dL * m_per_Mpc) / C
    return A_T / dist_s


def get_planck_taper(f: Array, theta: Array, kappa_T_eff: float):
    
    # Already rescaled below in global function
    m1, m2, chi1, chi2, lambda1, lambda2 = theta 
    # Convert the mass variables
    m1_s = m1 * gt
    m2_s = m2 * gt
    M_s = m1_s + m2_s
    eta = m1_s * m2_s / (M_s**2.0)
    
    # Compute the auxiliary variables
    X_1 = m1_s / M_s
    X_2 = m2_s / M_s

    n_1 = 3.354e-2
    n_2 = 4.3153e-5
    d_1 = 7.542e-2
    d_2 = 2.236e-4
    
    omega_hat = 0.3586 * (X_2/X_1) ** (1./2.) * (1. + n_1 * kappa_T_eff + n_2 * kappa_T_eff ** 2)/(1. + d_1 * kappa_T_eff + d_2 * kappa_T_eff ** 2)
    
    # FIXME - now, get the Planck taper!
    
    # Safety override: 
    A_P = jnp.ones_like(f)
    
    return A_P


def gen_NRTidalv2(f: Array, params: Array, f_ref: float, IMRphenom: str) -> Array:
    """
    Generate NRTidalv2 frequency domain waveform following 1508.07253.
    vars array contains both intrinsic and extrinsic variables
    theta = [Mchirp, eta, chi1, chi2, D, tc, phic]
    Mchirp: Chirp mass of the system [solar masses]
    eta: Symmetric mass ratio [between 0.0 and 0.25]
    chi1: Dimensionless aligned spin of the primary object [between -1 and 1]
    chi2: Dimensionless aligned spin of the secondary object [between -1 and 1]
    lambda1: Dimensionless tidal deformability of primary object
    lambda2: Dimensionless tidal deformability of secondary object
    D: Luminosity distance to source [Mpc]
    tc: Time of coalesence. This only appears as an overall linear in f contribution to the phase
    phic: Phase of coalesence

    f_ref: Reference frequency for the waveform
    
    IMRphenom: string selecting the underlying BBH approximant

    Returns:
    --------
      h0 (array): Strain
    """
    
    # Get parameters
    # FIXME now this is pretty cumbersome
    theta_intrinsic, theta_extrinsic = params[:6], params[6:]
    m1, m2, chi1, chi2, lambda1, lambda2 = theta_intrinsic
    
    m1_s = m1 * gt
    m2_s = m2 * gt
    M_s = m1_s + m2_s
    eta = m1_s * m2_s / (M_s**2.0)
    
    # Compute auxiliary quantities like kappa
    kappa_T_eff = get_kappa_eff(theta=theta_intrinsic)
        
    # Get the parameters that are passed to the BBH waveform, all except lambdas
    bbh_params = jnp.concatenate((jnp.array([m1, m2, chi1, chi2]), theta_extrinsic))
     
    # TODO - get other waveforms as well
    if IMRphenom == "IMRPhenomD":
        bbh_waveform_generator = gen_IMRPhenomD  # scaffolding: was `from ripple.waveforms.IMRPhenomD import gen_IMRPhenomD as bbh_waveform_generator`
    else:
        print("IMRPhenom string not recognized")
        return jnp.zeros_like(f)
    
    # Generate BBH waveform strain and get its amplitude and phase
    h0_bbh = bbh_waveform_generator(f, bbh_params, f_ref)
    A_bbh = jnp.abs(h0_bbh)
    psi_bbh = h0_bbh / jnp.abs(h0_bbh)
    
    A_T = get_tidal_amplitude(f * M_s, theta_intrinsic, kappa_T_eff, dL=theta_extrinsic[0])
    A_P = get_planck_taper(f * M_s, theta_intrinsic, kappa_T_eff)
    psi_T = get_tidal_phase(f * M_s, theta_intrinsic, kappa_T_eff)
    # FIXME - get correct SS terms
    psi_SS = get_spin_phase_correction(f, theta_intrinsic)
    
    h0 = A_P * (h0_bbh + A_T * jnp.exp(1j * - psi_bbh)) * jnp.exp(1.j * -(psi_T + psi_SS))
    
    return h0


def gen_NRTidalv2_hphc(f: Array, params: Array, f_ref: float, IMRphenom: str = "IMRPhenomD"):
    """
    vars array contains both intrinsic and extrinsic variables
    
    theta = [Mchirp, eta, chi1, chi2, lambda1, lambda2, D, tc, phic, inclination]
    Mchirp: Chirp mass of the system [solar masses]
    eta: Symmetric mass ratio [between 0.0 and 0.25]
    chi1: Dimensionless aligned spin of the primary object [between -1 and 1]
    chi2: Dimensionless aligned spin of the secondary object [between -1 and 1]
    D: Luminosity distance to source [Mpc]
    tc: Time of coalesence. This only appears as an overall linear in f contribution to the phase
    phic: Phase of coalesence
    inclination: Inclination angle of the binary [between 0 and PI]

    f_ref: Reference frequency for the waveform

    Returns:
    --------
      hp (array): Strain of the plus polarization
      hc (array): Strain of the cross polarization
    """
    iota = params[-1]
    h0 = gen_NRTidalv2(f, params[:-1], f_ref, IMRphenom=IMRphenom)
    
    hp = h0 * (1 / 2 * (1 + jnp.cos(iota) ** 2))
    hc = -1j * h0 * jnp.cos(iota)

    return hp, hc

# --- from test/check_NRTidal.py (random_match_NRTidal), lalsimulation match computation cut ---
waveform_generator = gen_NRTidalv2_hphc  # scaffolding: was imported from ripple.waveforms.X_NRTidalv2
IMRphenom = "IMRPhenomD"  # scaffolding

# Specify frequency range
f_l = 16
f_sampling = 4096

# FIXME - go to higher frequency
f_u = f_sampling // 2
f_u = 512
T = 16

# Build the frequency grid
delta_t = 1 / f_sampling
tlen = int(round(T / delta_t))
freqs = np.fft.rfftfreq(tlen, delta_t)
df = freqs[1] - freqs[0]
fs = freqs[(freqs > f_l) & (freqs < f_u)]
f_ref = f_l

@jax.jit
def waveform(theta):
    hp, _ = waveform_generator(fs, theta, f_ref, IMRphenom=IMRphenom)
    return hp

np.random.seed(0)  # scaffolding
calls = 0  # scaffolding
try:  # scaffolding
    for i in range(4):  # scaffolding: was range(n) with the lalsim match per draw
        m1, m2 = sorted(np.random.uniform(1.0, 2.0, size=2))[::-1]  # scaffolding (non_precessing_matchmaking draws)
        s1, s2 = np.random.uniform(-0.05, 0.05, size=2)
        l1, l2 = np.random.uniform(0, 3000, size=2)
        tc = 0.0
        phic = 0.0
        dist_mpc = 440
        inclination = np.pi / 2.0
        theta = np.array([m1, m2, s1, s2, l1, l2, dist_mpc, tc, phic, inclination])
        hp_ripple = waveform(theta)
        calls += 1  # scaffolding
    _report({"jit(waveform)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
