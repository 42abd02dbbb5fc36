# source: https://github.com/GalacticDynamics/coordinax/issues/940
# expect: trace-time-error at line 45
# runtime: ERROR TracerBoolConversionError
# why: The Galactocentric self-transition fast path tests `if from_frame == to_frame:`; frames are eqx.Module pytrees, so == over their array fields gives a 0-d array, and when the frames are passed to a jitted function that array is traced and the if raises.

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
import equinox as eqx
import jax
import jax.numpy as jnp


class Galactocentric(eqx.Module):  # scaffolding: stand-in frame with array-valued fields
    galcen_distance: jax.Array = eqx.field(default_factory=lambda: jnp.asarray(8.122))
    roll: jax.Array = eqx.field(default_factory=lambda: jnp.asarray(0.0))
    z_sun: jax.Array = eqx.field(default_factory=lambda: jnp.asarray(0.0208))


def _identity(q):  # scaffolding
    return q


def frame_transition(from_frame, to_frame):
    if from_frame == to_frame:
        return _identity
    angle = jnp.deg2rad(to_frame.roll - from_frame.roll)  # scaffolding: stand-in transform
    c, s = jnp.cos(angle), jnp.sin(angle)
    R = jnp.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])
    return lambda q: R @ q


try:  # scaffolding
    jax.jit(lambda a, b: frame_transition(a, b)(jnp.array([1.0, 2, 3])))(
        Galactocentric(), Galactocentric(roll=jnp.asarray(10.0)))
    _report({"jit(<lambda>)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
