# source: https://github.com/tedwards2412/ripple/commit/fb7a1d2ea9e9d015699a3dd2681d866ed17aa9b0
# expect: trace-time-error at line 54
# runtime: ERROR ConcretizationTypeError
# why: under jax.jit(gen_SineGaussian_hphc) duration and sample_rate are traced, so int(duration * sample_rate), the number of time samples, raises ConcretizationTypeError.

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


import jax  # scaffolding
import jax.numpy as jnp
from jax.lax import complex

PI = 3.141592653589793238462643383279502884  # ripplegw.constants
Array = jax.Array  # ripplegw.typing


# src/ripplegw/waveforms/SineGaussian.py (before the commit; docstrings cut)
def semi_major_minor_from_e(e: Array) -> tuple[Array, Array]:
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


# scaffolding: the waveform generator jitted as a whole and called for two batches of parameters
gen = jax.jit(gen_SineGaussian_hphc)
calls = 0
try:  # scaffolding
    for q in (3.0, 10.0):
        n = 4
        hp, hc = gen(jnp.full(n, q), jnp.full(n, 100.0), jnp.full(n, 1e-22), jnp.zeros(n), jnp.full(n, 0.5), 1.0, 4096.0)
        calls += 1
    _report({"jit(gen_SineGaussian_hphc)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
