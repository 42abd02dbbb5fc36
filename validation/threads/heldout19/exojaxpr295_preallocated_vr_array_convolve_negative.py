# source: https://github.com/HajimeKawahara/exojax/pull/295
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the PR's usage preallocates vr_array with NumPy from the static grid before HMC and only calls the jitted convolve_rigid_rotation with traced vsini inside, so it compiles once for 3 calls.
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

import jax
import jax.numpy as jnp
import numpy as np
from jax import jit

c = 299792.458  # scaffolding: exojax.utils.constants.c in km/s


def resolution_eslog(nu):
    """spectral resolution for ESLOG."""
    return (len(nu)-1)/np.log(nu[-1]/nu[0])


def delta_velocity_from_resolution(resolution):
    """delta velocity from spectral resolution R"""
    return c * jnp.log1p(1.0 / resolution)


def velocity_grid(resolution, vmax):
    """generate velocity grid for a rigid rotation"""
    dv = delta_velocity_from_resolution(resolution)
    Nk = (vmax / dv) + 1
    Nk = Nk.astype(int)
    return dv * np.arange(-Nk, Nk + 1)


def rotkernel(x, u1, u2):  # custom_jvp rule dropped: scaffolding
    x2 = x * x
    kernel = jnp.where(
        x2 <= 1.0,
        jnp.pi / 2.0 * u1 * (1.0 - x2) - 2.0 / 3.0 * jnp.sqrt(1.0 - x2) *
        (-3.0 + 3.0 * u1 + u2 + 2.0 * u2 * x2), 0.0)
    return kernel


@jit
def convolve_rigid_rotation(F0, vr_array, vsini, u1=0.0, u2=0.0):
    """Apply the Rotation response to a spectrum F (No OLA and No cuDNN)."""
    kernel = rotkernel(vr_array/vsini, u1, u2)
    kernel = kernel / jnp.sum(kernel, axis=0)
    input_length = len(F0)
    filter_length = len(kernel)
    fft_length = input_length + filter_length - 1
    convolved_signal = jnp.fft.irfft(
        jnp.fft.rfft(F0, n=fft_length) * jnp.fft.rfft(kernel, n=fft_length))
    n = int((filter_length - 1) / 2)
    convolved_signal = convolved_signal[n:-n]

    return convolved_signal


nus = np.exp(np.linspace(np.log(4300.0), np.log(4400.0), 2000))  # scaffolding: ESLOG grid
res = resolution_eslog(nus)  # scaffolding
F0 = jnp.ones(2000)  # scaffolding
u1, u2 = 0.1, 0.1  # scaffolding

#settings before HMC
vsini_max = 100.0
vr_array = velocity_grid(res, vsini_max)

for vsini in [10.0, 20.0, 30.0]:  # scaffolding: three HMC evaluations
    Frot = convolve_rigid_rotation(F0, vr_array, vsini, u1, u2)
_report({"jit(convolve_rigid_rotation)"}, 3)  # scaffolding
