# source: https://github.com/DifferentiableUniverseInitiative/JaxPM/commit/5108e56ee883b1c3d1871f89279cc3f1092f6690
# expect: trace-time-error at line 81
# runtime: ERROR NonConcreteBooleanIndexError
# why: Under jit the particle mask is traced, so the boolean selection xy[mask] has no static shape and raises NonConcreteBooleanIndexError.

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


# jaxpm/painting.py before the commit
def cic_paint_2d(mesh, positions):
  """ Paints positions onto a 2d mesh
  mesh: [nx, ny]
  positions: [npart, 2]
  """
  positions = jnp.expand_dims(positions, 1)
  floor = jnp.floor(positions)
  connection = jnp.array([[0, 0], [1., 0], [0., 1], [1., 1]])

  neighboor_coords = floor + connection
  kernel = 1. - jnp.abs(positions - neighboor_coords)
  kernel = kernel[..., 0] * kernel[..., 1] 
  
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


# jaxpm/lensing.py before the commit
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
    mask = (d > (center - width / 2)) & (d <= (center + width / 2))
    xy = xy[mask]

    # Painting density plane
    density_plane = cic_paint_2d(jnp.zeros([plane_resolution, plane_resolution]), xy)

    # Apply density normalization
    density_plane = density_plane / ((nx / plane_resolution) *
                                     (ny / plane_resolution) * (width))

    # Apply Gaussian smoothing if requested
    if smoothing_sigma is not None:
        density_plane = gaussian_smoothing(density_plane, 
                                           smoothing_sigma)

    return density_plane


# scaffolding: a jitted forward model that extracts planes from particle positions
box_shape = (32, 32, 32)


@jax.jit
def lightcone_planes(positions):
    return jnp.stack([density_plane(positions, box_shape, c, 8.0, 16) for c in (4.0, 12.0, 20.0, 28.0)])


pos = jax.random.uniform(jax.random.PRNGKey(0), (4096, 3), maxval=32.0)  # scaffolding
calls = 0
try:  # scaffolding
    for _ in range(3):
        planes = lightcone_planes(pos)
        calls += 1
    _report({"jit(lightcone_planes)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
