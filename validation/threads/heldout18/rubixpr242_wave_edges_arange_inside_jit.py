# source: https://github.com/AstroAI-Lab/rubix/pull/242
# expect: trace-time-error at line 48
# runtime: ERROR ConcretizationTypeError
# why: calculate_wave_seq builds the wavelength grid with jnp.arange from the wave range, so calling the telescope helpers on traced range values inside jit cannot give a static shape and raises.
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


from typing import List, Tuple, Union

import jax
import jax.numpy as jnp
import numpy as np
from jaxtyping import Array, Bool, Float, Int


def jaxtyped(typechecker=None):  # scaffolding: jaxtyping.jaxtyped with beartype (beartype not installed), a no-op
    return lambda f: f


typechecker = None  # scaffolding


@jaxtyped(typechecker=typechecker)
# TODO: check what the difference is to calculate_wave_bins
def calculate_wave_seq(wave_range: List[float], wave_res: float) -> Float[Array, "..."]:
    """
    Calculate the wavelength sequence for the wavelength bins.
    """
    return jnp.arange(wave_range[0], wave_range[1], wave_res)


@jaxtyped(typechecker=typechecker)
def calculate_wave_edges(
    wave_bin_edges: Float[Array, "..."], wave_res: float
) -> Float[Array, "..."]:
    """
    Calculate the bin edges for the wavelength bins.
    """

    wave_start = wave_bin_edges[0] - (wave_res / 2)
    wave_end = wave_bin_edges[-1] + (wave_res / 2)
    wave_bins = jnp.arange(wave_start, wave_end, wave_res)
    return wave_bins


config = {"wave_range": [4700.6, 9351.0], "wave_res": 100.0}  # scaffolding: a MUSE-like telescope config, coarse
spectra = jnp.ones((50, 40))  # scaffolding: 50 stellar spectra, first 40 wave bins


@jax.jit  # scaffolding: the telescope helpers called inside a jitted pipeline step
def bin_spectra(spectra, wave_lo, wave_hi, wave_res):  # scaffolding
    wave_seq = calculate_wave_seq([wave_lo, wave_hi], wave_res)  # scaffolding
    wave_edges = calculate_wave_edges(wave_seq, wave_res)  # scaffolding
    return spectra.sum(axis=0) * jnp.diff(wave_edges)[: spectra.shape[1]]  # scaffolding


try:  # scaffolding
    for k in range(3):  # scaffolding
        bin_spectra(spectra * (k + 1), *config["wave_range"], config["wave_res"])  # scaffolding
    _report({"jit(bin_spectra)"}, 3)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
