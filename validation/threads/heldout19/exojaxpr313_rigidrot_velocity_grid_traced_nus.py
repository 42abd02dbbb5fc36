# source: https://github.com/HajimeKawahara/exojax/pull/313
# expect: trace-time-error at line 87
# runtime: ERROR TracerArrayConversionError
# why: response.rigidrot derives the rotation kernel's velocity grid from nus, which is traced inside the jitted model, so resolution_eslog/velocity_grid hand a tracer to NumPy (np.log, np.arange) and tracing raises.
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


def rigidrot(nus, F0, vsini, u1, u2, vsinimax=100.0):
    """(deprecated) rigid rotation. This will be removed.
    """
    resolution = resolution_eslog(nus)
    vr_array = velocity_grid(resolution, vsinimax)
    return convolve_rigid_rotation(F0, vr_array, vsini, u1, u2)


@jit  # scaffolding: the reporter's obyo is a numpyro model run under MCMC (jitted)
def obyo(nus, F0, vsini, u1, u2):  # scaffolding: cut down to the rotation step
    Frot=rigidrot(nus,F0,vsini,u1,u2)
    return Frot


nus = jnp.exp(jnp.linspace(jnp.log(4300.0), jnp.log(4400.0), 2000))  # scaffolding: ESLOG grid
F0 = jnp.ones(2000)  # scaffolding
try:  # scaffolding
    obyo(nus, F0, 20.0, 0.1, 0.1)
    _report({"jit(obyo)"}, 1)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
