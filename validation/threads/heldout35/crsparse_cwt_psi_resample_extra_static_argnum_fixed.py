# source: https://github.com/carnotresearch/cr-sparse/commit/5f9ab2a928cc3abc287144932427d6380b495ebe
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The commit uses static_argnums=(2,3) (domain, scale); three resamplings with the same domain/scale and array shapes compile once.

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
from functools import partial

import jax  # scaffolding
from jax import jit, lax
import jax.numpy as jnp


class _Fns:  # scaffolding: stand-in for cr.sparse's wavelet objects (Mexican hat)
    @staticmethod
    def time(t):
        return (1 - t ** 2) * jnp.exp(-t ** 2 / 2)


class MexicanHat:  # scaffolding
    functions = _Fns()
    lower_bound = -8.0
    upper_bound = 8.0
    domain = 16.0


def cont_wave_fun(wavelet, precision):
    """Computes the wavelet function for a Continuous Wavelet
    """
    func = wavelet.functions.time
    lb = wavelet.lower_bound
    ub = wavelet.upper_bound
    n = 2**precision
    t = jnp.linspace(lb, ub, n)
    psi = func(t)
    return psi, t

cont_wave_fun_jit = jit(cont_wave_fun, static_argnums=(0,1))

def int_wave_fun(wavelet, precision):
    """Computes the integral of the wavelet function for a Continuous Wavelet
    """
    psi, t = cont_wave_fun(wavelet, precision)
    dt = t[1] - t[0]
    int_psi = jnp.cumsum(psi) * dt
    return int_psi, t

def psi_resample(int_psi, dt, domain, scale):
    j = jnp.arange(scale*domain + 1) / (scale * dt)
    j = j.astype(int)  # floor
    int_psi_scale = int_psi[j][::-1]
    return int_psi_scale

psi_resample_jit = jit(psi_resample, static_argnums=(2,3))
wavelet = MexicanHat()  # scaffolding
calls = 0  # scaffolding
for precision in (8, 9, 10):  # scaffolding: three integrated wavelets of different resolution
    int_psi, t = int_wave_fun(wavelet, precision)  # scaffolding
    dt = wavelet.domain / (len(t) - 1)  # scaffolding: as in cwt_id_time
    out = psi_resample_jit(int_psi[:256], dt, wavelet.domain, 2.0)  # scaffolding
    calls += 1  # scaffolding
print(out.shape)  # scaffolding
_report({"jit(psi_resample)"}, calls)  # scaffolding
