# source: https://github.com/Hs293Go/observability_aware_control/blob/4713c5e7e10a6d1d8dbecc8eda90a8013fb970b2/src/example_lib/math/rotation.py
# expect: trace-time-error at line 36
# runtime: ERROR TracerBoolConversionError
# why: angle_rotate_point is plain @jax.jit with a Python `if invert_rotation:`, and the robot's landmark observation model passes True positionally, so the flag is traced and the branch raises TracerBoolConversionError on the first observation.

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
# src/example_lib/math/rotation.py (angle_rotate_point)
import jax
import jax.numpy as jnp


@jax.jit
def angle_rotate_point(angle, point, invert_rotation=False):
    if invert_rotation:
        angle = -angle
    c = jnp.cos(angle)
    s = jnp.sin(angle)

    return jnp.array(
        [
            c * point[0] - s * point[1],
            s * point[0] + c * point[1],
        ]
    )


# src/example_lib/models/simple_robot.py (observation model)
import enum

import jax.numpy.linalg as jla
import types  # scaffolding


class ObservationKind(enum.Enum):
    POSITION = 0
    RANGE = 1
    BEARING = 2


def observation(x, _, lm, kind=ObservationKind.POSITION):
    position, heading, *_ = map(jnp.squeeze, jnp.split(x, [2]))
    relative_position = math.angle_rotate_point(heading, lm - position, True)
    if kind == ObservationKind.POSITION:
        return jnp.append(relative_position, heading)
    if kind == ObservationKind.RANGE:
        return jnp.array([jla.norm(relative_position), heading])
    if kind == ObservationKind.BEARING:
        return jnp.array(
            [jnp.arctan2(relative_position[1], relative_position[0]), heading]
        )
    raise ValueError(f"{kind} is not a valid kind of interrobot observation")


# scaffolding: the EKF evaluates the landmark observation model at successive robot states
math = types.SimpleNamespace(angle_rotate_point=angle_rotate_point)  # scaffolding: `from example_lib import math`
lm = jnp.array([2.0, 1.0])  # scaffolding: landmark position
calls = 0  # scaffolding
try:  # scaffolding
    for k in range(3):  # scaffolding
        x = jnp.array([0.1 * k, 0.2 * k, 0.3 * k])  # scaffolding: [px, py, heading]
        y = observation(x, None, lm)  # scaffolding
        calls += 1  # scaffolding
    _report({"jit(angle_rotate_point)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
