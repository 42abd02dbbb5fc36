# source: https://github.com/GW-JAX-Team/ripple/commit/fb7a1d2ea9e9d015699a3dd2681d866ed17aa9b0
# expect: trace-time-error at line 86
# runtime: ERROR ConcretizationTypeError
# why: gen_SineGaussian_hphc builds its time grid with num = int(duration * sample_rate); jitted with duration as an argument, int() of a tracer raises while tracing.

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
import jax  # scaffolding
import jax.numpy as jnp
from jax.lax import complex

from jax import Array  # scaffolding: was `from ..typing import Array`
# scaffolding: ripplegw's package-relative imports replaced by the values they name
PI = 3.141592653589793238462643383279502884  # scaffolding: ripplegw.constants.PI


def semi_major_minor_from_e(e: Array) -> tuple[Array, Array]:
    """
    Calculate the semi-major and semi-minor axes of an ellipse given the
    eccentricity of the ellipse.

    Args:
        e: Eccentricity of the ellipse
    Returns:
        Semi-major (a) and semi-minor (b) axes of the ellipse
    """
    a = 1.0 / jnp.sqrt(2.0 - (e * e))
    b = a * jnp.sqrt(1.0 - (e * e))
    return a, b


def gen_SineGaussian_hphc(
    quality: Array,
    frequency: Array,
    hrss: Array,
    phase: Array,
    eccentricity: Array,
    duration: float,
    sample_rate: float = 4096.0,
) -> tuple[Array, Array]:
    """
    Generate lalinference implementation of a sine-Gaussian waveform in Jax.
    See
    git.ligo.org/lscsoft/lalsuite/-/blob/master/lalinference/lib/LALInferenceBurstRoutines.c#L381
    for details on parameter definitions.

    Args:
        quality:
            Quality factor of the sine-Gaussian waveform
        frequency:
            Central frequency of the sine-Gaussian waveform
        hrss:
            Hrss of the sine-Gaussian waveform
        phase:
            Phase of the sine-Gaussian waveform
        eccentricity:
            Eccentricity of the sine-Gaussian waveform.
            Controls the relative amplitudes of the
            hplus and hcross polarizations.
    Returns:
        Jax Arrays of plus and cross polarizations
    """
    # determine times based on requested duration and sample rate
    # and shift so that the waveform is centered at t=0
    num = int(duration * sample_rate)
    times = jnp.arange(num) / sample_rate
    times -= duration / 2.0

    # add dimension for calculating waveforms in batch
    frequency = frequency.reshape(-1, 1)
    quality = quality.reshape(-1, 1)
    hrss = hrss.reshape(-1, 1)
    phase = phase.reshape(-1, 1)
    eccentricity = eccentricity.reshape(-1, 1)

    pi = jnp.array([PI])

    # calculate relative hplus / hcross amplitudes based on eccentricity
    # as well as normalization factors
    a, b = semi_major_minor_from_e(eccentricity)
    norm_prefactor = quality / (4.0 * frequency * jnp.sqrt(pi))
    cosine_norm = norm_prefactor * (1.0 + jnp.exp(-quality * quality))
    sine_norm = norm_prefactor * (1.0 - jnp.exp(-quality * quality))

    cos_phase, sin_phase = jnp.cos(phase), jnp.sin(phase)

    h0_plus = (
        hrss * a / jnp.sqrt(cosine_norm * (cos_phase**2) + sine_norm * (sin_phase**2))
    )
    h0_cross = (
        hrss * b / jnp.sqrt(cosine_norm * (sin_phase**2) + sine_norm * (cos_phase**2))
    )

    # cast the phase to a complex number
    phi = 2 * pi * frequency * times
    complex_phase = complex(jnp.zeros_like(phi), (phi - phase))

    # calculate the waveform and apply a tukey
    # window to taper the waveform
    fac = jnp.exp(phi**2 / (-2.0 * quality**2) + complex_phase)

    cross = fac.imag * h0_cross
    plus = fac.real * h0_plus

    return plus, cross


# --- usage as in notebooks/check_SineGaussian.ipynb, under jax.jit (the commit's goal: "make it jitable") ---
import numpy as np  # scaffolding

duration = 1.0  # scaffolding
fs = 2048.0  # scaffolding
time_grid = jnp.arange(-duration / 2, duration / 2, 1 / fs)  # as the fixed docstring says
jitted = jax.jit(gen_SineGaussian_hphc)  # scaffolding
rng = np.random.default_rng(0)  # scaffolding
calls = 0  # scaffolding
try:  # scaffolding
    for batch in range(4):  # scaffolding: four batches of 8 waveforms with the same settings
        quality = jnp.asarray(rng.uniform(3, 30, 8))
        frequency = jnp.asarray(rng.uniform(32, 1024, 8))
        hrss = jnp.asarray(rng.uniform(1e-23, 1e-21, 8))
        phase = jnp.asarray(rng.uniform(0, 2 * np.pi, 8))
        eccentricity = jnp.asarray(rng.uniform(0, 1, 8))
        hplus, hcross = jitted(quality, frequency, hrss, phase, eccentricity, duration, fs)
        calls += 1  # scaffolding
    _report({"jit(gen_SineGaussian_hphc)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
