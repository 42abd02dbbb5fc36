# source: https://github.com/google-research/multinerf/pull/62
# expect: trace-time-error at line 78
# runtime: ERROR TracerArrayConversionError
# why: with cast_rays_in_train_step the rays are built inside the jitted train step, but pixels_to_rays calls convert_to_ndc without xnp=xnp, so it runs numpy (the default xnp=np, and a hard-coded np.stack) on traced origins/directions and raises TracerArrayConversionError.

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
import types
from typing import Tuple, Union

import jax
import jax.numpy as jnp
import numpy as np

_Array = Union[np.ndarray, jnp.ndarray]


def convert_to_ndc(origins: _Array,
                   directions: _Array,
                   pixtocam: _Array,
                   near: float = 1.,
                   xnp: types.ModuleType = np) -> Tuple[_Array, _Array]:
  """Converts a set of rays to normalized device coordinates (NDC)."""

  # Shift ray origins to near plane, such that oz = -near.
  # This makes the new near bound equal to 0.
  t = -(near + origins[..., 2]) / directions[..., 2]
  origins = origins + t[..., None] * directions

  dx, dy, dz = xnp.moveaxis(directions, -1, 0)
  ox, oy, oz = xnp.moveaxis(origins, -1, 0)

  xmult = 1. / pixtocam[0, 2]  # Equal to -2. * focal / cx
  ymult = 1. / pixtocam[1, 2]  # Equal to -2. * focal / cy

  # Perspective projection into NDC for the t = 0 near points
  #     origins + 0 * directions
  origins_ndc = xnp.stack([xmult * ox / oz, ymult * oy / oz,
                           -xnp.ones_like(oz)], axis=-1)

  # Perspective projection into NDC for the t = infinity far points
  #     origins + infinity * directions
  infinity_ndc = np.stack([xmult * dx / dz, ymult * dy / dz,
                           xnp.ones_like(oz)],
                          axis=-1)

  # directions_ndc points from origins_ndc to infinity_ndc
  directions_ndc = infinity_ndc - origins_ndc

  return origins_ndc, directions_ndc


@jax.jit
def cast_rays(origins, directions, pixtocam_ndc):  # scaffolding: stands in for pixels_to_rays(..., xnp=jnp) inside the jitted train_step
  xnp = jnp  # scaffolding: pixels_to_rays receives xnp=jnp when cast_rays_in_train_step=True
  # Convert ray origins and directions into projective NDC space.
  origins, directions = convert_to_ndc(origins, directions, pixtocam_ndc)
  return origins, directions


origins = jnp.zeros((4, 3))  # scaffolding
directions = jnp.tile(jnp.array([0.1, 0.2, -1.0]), (4, 1))  # scaffolding
pixtocam_ndc = jnp.array([[1., 0., -0.5], [0., 1., -0.5], [0., 0., 1.]])  # scaffolding
try:  # scaffolding
  cast_rays(origins, directions, pixtocam_ndc)
  print("COMPILES 1 CALLS 1")  # scaffolding
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")  # scaffolding
