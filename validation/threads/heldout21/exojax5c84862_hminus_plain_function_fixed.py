# source: https://github.com/HajimeKawahara/exojax/commit/5c848625c66e8da75a09bb02c17d56af234fbea0
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the commit removes the stray @jit from log_hminus_continuum; the user's jitted opacity model still compiles once for three temperature profiles.
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


import numpy as np
import jax.numpy as jnp
from jax import jit


CONST_K, CONST_C, CONST_H = 1.380649e-16, 29979245800.0, 6.62607015e-27 # cgs

def log_hminus_continuum(wavelength_um, temperature, number_density_e, number_density_h):
    """
    John (1988) H- continuum opacity
    
    Args:
       wavelength_um: wavelength in units of microns
       temperature: gas temperature [K]
       number_density_e: electron number density
       number_density_h: H atom number density
    
    Returns: 
       log10(absorption coefficient)
    """
    # first, compute the cross sections (in cm4/dyne)
    kappa_bf = bound_free_absorption(wavelength_um, temperature) 
    kappa_ff = free_free_absorption(wavelength_um, temperature) 

    electron_pressure = number_density_e * CONST_K * temperature  #//electron pressure in dyne/cm2
    hydrogen_density = number_density_h   #//hydrogen number density in cm-3

    # and now finally the absorption_coeff (in cm-1)
    absorption_coeff = (kappa_bf + kappa_ff) * electron_pressure * hydrogen_density 

    return jnp.log10(absorption_coeff)



def bound_free_absorption(wavelength_um, temperature):

    # Note: alpha has a value of 1.439e4 micron-1 K-1, the value stated in John (1988) is wrong
    # here, we express alpha using physical constants 
    alpha = CONST_C*CONST_H/CONST_K*10000.0  
    lambda_0 = 1.6419  # photo-detachment threshold

    #   //tabulated constant from John (1988)
    C_n = [0.0, 152.519, 49.534, -118.858, 92.536, -34.194, 4.982]

    def f(wavelength_um):
        x = 0 

        for i in range(1, 7):
            x += C_n[i] * jnp.power((1.0/wavelength_um - 1.0/lambda_0), (i-1)/2.0) 

        return x 


    # first, we calculate the photo-detachment cross-section (in cm2)
    kappa_bf = (1e-18 * wavelength_um ** 3 * 
        jnp.power(1.0/wavelength_um - 1.0/lambda_0, 1.5) * f(wavelength_um)
    )

    kappa_bf = jnp.where(
        (wavelength_um <= lambda_0) & (wavelength_um > 0.125),
        (0.750 * jnp.power(temperature, -2.5) * jnp.exp(alpha / lambda_0 / temperature) * 
         (1.0 - jnp.exp( -alpha / wavelength_um / temperature)) * kappa_bf), 
         0
    )
    return kappa_bf


def free_free_absorption(wavelength_um, temperature):

    # coefficients from John (1988)
    # to follow his notation (which starts at an index of 1), the 0-index components are 0
    # for wavelengths larger than 0.3645 micron
    A_n1 = [0.0, 0.0, 2483.3460, -3449.8890, 2200.0400, -696.2710, 88.2830]
    B_n1 = [0.0, 0.0, 285.8270, -1158.3820, 2427.7190, -1841.4000, 444.5170]
    C_n1 = [0.0, 0.0, -2054.2910, 8746.5230, -13651.1050, 8624.9700, -1863.8650]
    D_n1 = [0.0, 0.0, 2827.7760, -11485.6320, 16755.5240, -10051.5300, 2095.2880]
    E_n1 = [0.0, 0.0, -1341.5370, 5303.6090, -7510.4940, 4400.0670, -901.7880]
    F_n1 = [0.0, 0.0, 208.9520, -812.9390, 1132.7380, -655.0200, 132.9850]

    # for wavelengths between 0.1823 micron and 0.3645 micron
    A_n2 = [0.0, 518.1021, 473.2636, -482.2089, 115.5291, 0.0, 0.0]
    B_n2 = [0.0, -734.8666, 1443.4137, -737.1616, 169.6374, 0.0, 0.0]
    C_n2 = [0.0, 1021.1775, -1977.3395, 1096.8827, -245.6490, 0.0, 0.0]
    D_n2 = [0.0, -479.0721, 922.3575, -521.1341, 114.2430, 0.0, 0.0]
    E_n2 = [0.0, 93.1373, -178.9275, 101.7963, -21.9972, 0.0, 0.0]
    F_n2 = [0.0, -6.4285, 12.3600, -7.0571, 1.5097, 0.0, 0.0]


    def ff(wavelength, A_n, B_n, C_n, D_n, E_n, F_n):
        x = 0 

        for i in range(1, 7):
            x += (jnp.power(5040.0/temperature, (i+1)/2.0) * 
                  (wavelength**2 * A_n[i] + B_n[i] + C_n[i]/wavelength + D_n[i]/wavelength**2  + 
                   E_n[i]/wavelength**3 + F_n[i]/wavelength**4))

        return x*1e-29 


    kappa_ff = jnp.where(
        wavelength_um > 0.3645, 
        ff(wavelength_um, A_n1, B_n1, C_n1, D_n1, E_n1, F_n1), 
        0
    ) + jnp.where(
        (wavelength_um >= 0.1823) & (wavelength_um <= 0.3645),
        ff(wavelength_um, A_n2, B_n2, C_n2, D_n2, E_n2, F_n2),
        0
    )

    return kappa_ff


wavelength_um = jnp.linspace(0.5, 2.5, 400)  # scaffolding
log_pressure = jnp.linspace(-4.0, 2.0, 30)  # scaffolding


@jit  # scaffolding: a user's jitted continuum opacity profile
def hminus_profile(T0):  # scaffolding
    temperature = T0 * (10.0 ** log_pressure) ** 0.1  # scaffolding
    ne = 1e10 * (10.0 ** log_pressure)  # scaffolding
    nh = 1e16 * (10.0 ** log_pressure)  # scaffolding
    return log_hminus_continuum(wavelength_um[None, :], temperature[:, None], ne[:, None], nh[:, None])  # scaffolding


for T0 in [3000.0, 3500.0, 4000.0]:  # scaffolding
    hminus_profile(T0).block_until_ready()  # scaffolding
_report({"jit(hminus_profile)"}, 3)  # scaffolding
