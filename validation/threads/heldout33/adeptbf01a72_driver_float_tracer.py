# source: https://github.com/ergodicio/adept/commit/bf01a72e9dfcefb4193735ce3d2c9798da0e9e59
# expect: trace-time-error at line 78
# runtime: ERROR ConcretizationTypeError
# why: TransverseWaveDriver.__call__ runs inside adept's jitted time step and calls float(self.x_a[-1]); indexing the grid array under jit yields a tracer, so float() raises ConcretizationTypeError (the other float() calls on config floats are harmless).

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
import warnings

import jax  # scaffolding
import jax.numpy as jnp
from jax import Array


def get_envelope(p_wL, p_wR, p_L, p_R, ax):  # from adept/_base_.py
    warnings.warn(
        "get_envelope is deprecated. Use adept.utils.EnvelopeFunction instead.",
        DeprecationWarning,
        stacklevel=2,
    )
    return 0.5 * (jnp.tanh((ax - p_L) / p_wL) - jnp.tanh((ax - p_R) / p_wR))


class TransverseWaveDriver:
    """Wave-equation source term S(x, t) = Σ_pulses -w² a0 envelope(x,t) sin(kx − wt).

    Reads directly from the raw normalized driver_config dict (same format as
    adept._spectrax1d.driver.Driver) so no Pydantic/EMDriver chain is needed.
    Output shape: (Nx+2,), matching WaveSolver's djy_array expectation.
    """

    def __init__(self, x_a: Array, ey_driver_cfg: dict):
        """
        Args:
            x_a: Extended x grid with ghost cells, shape (Nx+2,).
            ey_driver_cfg: dict mapping pulse_name → pulse_dict from cfg["drivers"]["ey"].
        """
        self.x_a = x_a
        self.pulses = list(ey_driver_cfg.items()) if isinstance(ey_driver_cfg, dict) else []

    def __call__(self, t: float, args) -> Array:
        total = jnp.zeros_like(self.x_a)
        for _, pulse in self.pulses:
            if not isinstance(pulse, dict):
                continue
            k0 = float(pulse["k0"])
            w0 = float(pulse["w0"])
            a0 = float(pulse["a0"])
            dw = float(pulse.get("dw0", 0.0))
            w_total = w0 + dw

            t_center = float(pulse.get("t_center", 0.0))
            t_half = 0.5 * float(pulse.get("t_width", 1e10))
            t_rise = float(pulse.get("t_rise", 0.0))
            env_t = get_envelope(t_rise, t_rise, t_center - t_half, t_center + t_half, t)

            x_center = float(pulse.get("x_center", 0.5 * float(self.x_a[-1])))
            x_half = 0.5 * float(pulse.get("x_width", 1e10))
            x_rise = float(pulse.get("x_rise", 0.0))
            env_x = get_envelope(x_rise, x_rise, x_center - x_half, x_center + x_half, self.x_a)

            total = total + env_t * env_x * (-(w_total**2)) * a0 * jnp.sin(k0 * self.x_a - w_total * t)
        return total


# scaffolding: grid and driver config stand in for adept's cfg; modules.py builds the driver the same way
warnings.simplefilter("ignore", DeprecationWarning)  # scaffolding
x_a = jnp.linspace(-0.5, 64.5, 66)  # scaffolding
ey_cfg = {"pulse1": {"k0": 0.3, "w0": 1.1, "a0": 1e-3, "t_center": 40.0, "t_width": 60.0, "t_rise": 5.0,
                     "x_width": 40.0, "x_rise": 5.0}}  # scaffolding
ey_driver = TransverseWaveDriver(x_a, ey_cfg)


@jax.jit  # scaffolding: adept evaluates the driver inside its jitted diffrax step (vector_field.py)
def wave_source(t, dt):
    return ey_driver(t + 0.5 * dt, None)


n_calls = 4  # scaffolding
try:  # scaffolding
    for i in range(n_calls):  # scaffolding: four time steps
        djy = wave_source(i * 0.5, 0.5)
    _report({"jit(wave_source)"}, n_calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
