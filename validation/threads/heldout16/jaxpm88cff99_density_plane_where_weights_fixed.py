# source: https://github.com/DifferentiableUniverseInitiative/JaxPM/commit/88cff997367f85a5556fb6f60d727abd62f97601
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the commit keeps every particle and paints it with a jnp.where weight of 1 or 0, a fixed-shape operation, so the jitted plane compiles once for 2 calls.

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
import jax.lax as lax
from functools import partial  # scaffolding


def gaussian_smoothing(im, sigma):  # scaffolding: jaxpm.utils.gaussian_smoothing (not used: smoothing_sigma=None)
    raise NotImplementedError


# jaxpm/painting.py (after the commit)
def cic_paint_2d(mesh, positions, weight):
  """ Paints positions onto a 2d mesh
  mesh: [nx, ny]
  positions: [npart, 2]
  weight: [npart]
  """
  positions = jnp.expand_dims(positions, 1)
  floor = jnp.floor(positions)
  connection = jnp.array([[0, 0], [1., 0], [0., 1], [1., 1]])

  neighboor_coords = floor + connection
  kernel = 1. - jnp.abs(positions - neighboor_coords)
  kernel = kernel[..., 0] * kernel[..., 1] 
  if weight is not None:
    kernel = kernel * weight[...,jnp.newaxis]
  
  neighboor_coords = jnp.mod(neighboor_coords.reshape([-1,4,2]).astype('int32'), jnp.array(mesh.shape))

  dnums = jax.lax.ScatterDimensionNumbers(
    update_window_dims=(),
    inserted_window_dims=(0, 1),
    scatter_dims_to_operand_dims=(0, 1))
  mesh = lax.scatter_add(mesh, 
                         neighboor_coords, 
                         kernel.reshape([-1,4]),
                         dnums)
  return mesh


# jaxpm/lensing.py (after the commit)
def density_plane(positions,
                  box_shape,
                  center,
                  width,
                  plane_resolution,
                  smoothing_sigma=None):
    """ Extacts a density plane from the simulation
    """
    nx, ny, nz = box_shape
    xy = positions[..., :2]
    d = positions[..., 2]

    # Apply 2d periodic conditions
    xy = jnp.mod(xy, nx)

    # Rescaling positions to target grid
    xy = xy / nx * plane_resolution

    # Selecting only particles that fall inside the volume of interest
    weight = jnp.where((d > (center - width / 2)) & (d <= (center + width / 2)), 1., 0.)
    # Painting density plane
    density_plane = cic_paint_2d(jnp.zeros([plane_resolution, plane_resolution]), xy, weight)

    # Apply density normalization
    density_plane = density_plane / ((nx / plane_resolution) *
                                     (ny / plane_resolution) * (width))

    # Apply Gaussian smoothing if requested
    if smoothing_sigma is not None:
        density_plane = gaussian_smoothing(density_plane, 
                                           smoothing_sigma)

    return density_plane


# scaffolding: one lens plane painted from a 32^3 box inside a jitted forward model, for two particle sets
paint_plane = jax.jit(density_plane, static_argnums=(1, 4))
calls = 0
try:  # scaffolding
    for seed in (0, 1):
        positions = jax.random.uniform(jax.random.PRNGKey(seed), (4096, 3)) * 32
        plane = paint_plane(positions, (32, 32, 32), 16.0, 8.0, 16)
        calls += 1
    _report({"jit(density_plane)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
