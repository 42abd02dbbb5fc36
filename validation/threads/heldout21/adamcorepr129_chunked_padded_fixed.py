# source: https://github.com/B612-Asteroid-Institute/adam_core/pull/129
# expect: none
# runtime: COMPILES 1 CALLS 6
# why: the PR feeds the kernel fixed chunks of 50 rows (the last one padded by process_in_chunks) and trims the padding afterwards, so the five batches make six kernel calls with one shape and compile once.
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


from typing import Union

import jax.numpy as jnp
import numpy as np
from jax import config, jit, lax, vmap

config.update("jax_enable_x64", True)


# adam_core/utils/chunking.py (added by the PR)
def pad_to_fixed_size(array, target_shape, pad_value=0):
    pad_width = [(0, max(0, t - s)) for s, t in zip(array.shape, target_shape)]
    return jnp.pad(array, pad_width, constant_values=pad_value)


def process_in_chunks(array, chunk_size):
    n = array.shape[0]
    for i in range(0, n, chunk_size):
        chunk = array[i : i + chunk_size]
        if chunk.shape[0] < chunk_size:
            chunk = pad_to_fixed_size(chunk, (chunk_size,) + chunk.shape[1:])
        yield chunk


@jit
def _cartesian_to_spherical(
    coords_cartesian: Union[np.ndarray, jnp.ndarray]
) -> jnp.ndarray:
    coords_spherical = jnp.zeros(6, dtype=jnp.float64)
    x = coords_cartesian[0]
    y = coords_cartesian[1]
    z = coords_cartesian[2]
    vx = coords_cartesian[3]
    vy = coords_cartesian[4]
    vz = coords_cartesian[5]

    rho = jnp.sqrt(x**2 + y**2 + z**2)
    lon = jnp.arctan2(y, x)
    lon = jnp.where(lon < 0.0, 2 * jnp.pi + lon, lon)
    lat = lax.cond(
        rho == 0.0,
        lambda _: 0.0,
        lambda _: jnp.arcsin(z / rho),
        None,
    )
    lat = jnp.where(
        (lat >= 3 * jnp.pi / 2) & (lat <= 2 * jnp.pi), lat - 2 * jnp.pi, lat
    )

    vrho = lax.cond(
        rho == 0.0,
        lambda _: 0.0,
        lambda _: (x * vx + y * vy + z * vz) / rho,
        None,
    )
    vlon = lax.cond(
        (x == 0.0) & (y == 0.0),
        lambda _: 0.0,
        lambda _: (vy * x - vx * y) / (x**2 + y**2),
        None,
    )
    vlat = lax.cond(
        ((x == 0.0) & (y == 0.0)) | (rho == 0.0),
        lambda _: 0.0,
        lambda _: (vz - vrho * z / rho) / jnp.sqrt(x**2 + y**2),
        None,
    )

    coords_spherical = coords_spherical.at[0].set(rho)
    coords_spherical = coords_spherical.at[1].set(jnp.degrees(lon))
    coords_spherical = coords_spherical.at[2].set(jnp.degrees(lat))
    coords_spherical = coords_spherical.at[3].set(vrho)
    coords_spherical = coords_spherical.at[4].set(jnp.degrees(vlon))
    coords_spherical = coords_spherical.at[5].set(jnp.degrees(vlat))

    return coords_spherical


# Vectorization Map: _cartesian_to_spherical
_cartesian_to_spherical_vmap = jit(
    vmap(
        _cartesian_to_spherical,
        in_axes=(0,),
    )
)



def cartesian_to_spherical(
    coords_cartesian: Union[np.ndarray, jnp.ndarray]
) -> jnp.ndarray:
    """Convert Cartesian coordinates to spherical coordinates (docstring cut)."""
    # Define chunk size
    chunk_size = 50
    
    # Process in chunks
    coords_spherical_chunks = []
    for cartesian_chunk in process_in_chunks(coords_cartesian, chunk_size):
        coords_spherical_chunk = _cartesian_to_spherical_vmap(cartesian_chunk)
        coords_spherical_chunks.append(coords_spherical_chunk)

    # Concatenate chunks and remove padding
    coords_spherical = jnp.concatenate(coords_spherical_chunks, axis=0)
    coords_spherical = coords_spherical[:len(coords_cartesian)]

    return coords_spherical


# scaffolding: Orbits/ephemerides of different sizes converted one after another (e.g. per observatory night)
rng = np.random.default_rng(0)
sizes = [7, 13, 29, 50, 64]
for n in sizes:  # scaffolding
    coords = cartesian_to_spherical(rng.normal(size=(n, 6)))
_report({"jit(_cartesian_to_spherical)"}, 6)  # scaffolding
