# source: https://github.com/ymahlau/fdtdx/pull/331
# expect: trace-time-error at line 78
# runtime: ERROR TracerArrayConversionError
# why: the mode source takes its edge coordinates from grid.edges(), which returns the grid's JAX-array pytree leaves, so inside the jitted simulation they are tracers and compute_mode's np.asarray on them raises.
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
# ymahlau/fdtdx PR #331: the mode source's edge coordinates come from the grid's JAX-array leaves (before the PR)
from dataclasses import dataclass, field  # scaffolding
from typing import Sequence  # scaffolding

import jax
import jax.numpy as jnp
import numpy as np


@jax.tree_util.register_dataclass  # scaffolding: stand-in for fdtdx's TreeClass RectilinearGrid
@dataclass(frozen=True)
class RectilinearGrid:  # scaffolding
    x_edges: jax.Array  # scaffolding
    y_edges: jax.Array  # scaffolding
    z_edges: jax.Array  # scaffolding

    def edges(self, axis: int) -> jax.Array:
        """Return edge coordinates for ``axis``."""
        return (self.x_edges, self.y_edges, self.z_edges)[axis]


def compute_mode(permittivities, transverse_coords: Sequence | None = None):  # scaffolding: cut to the coordinate checks
    other_axes = [a for a in range(1, 4) if permittivities.shape[a] != 1]
    if len(transverse_coords) != 2:
        raise ValueError(
            f"transverse_coords must contain exactly two coordinate arrays, got {len(transverse_coords)}"
        )
    coords_meter = [np.asarray(coord, dtype=np.float64) for coord in transverse_coords]
    expected_lengths = [permittivities.shape[dim] + 1 for dim in other_axes]
    for axis_idx, (coord, expected_length) in enumerate(zip(coords_meter, expected_lengths, strict=True)):
        if coord.ndim != 1 or coord.shape[0] != expected_length:
            raise ValueError(
                f"transverse_coords[{axis_idx}] must be 1D with length {expected_length}, got {coord.shape}"
            )
        if np.any(np.diff(coord) <= 0):
            raise ValueError(f"transverse_coords[{axis_idx}] must be strictly increasing")
    coords = [coord / 1e-6 for coord in coords_meter]
    area_2d = jnp.asarray(np.diff(coords_meter[0])[:, None] * np.diff(coords_meter[1])[None, :], dtype=jnp.float32)
    return jnp.sum(permittivities) * jnp.sum(area_2d)  # scaffolding: no eigen-solve


@dataclass  # scaffolding
class ModePlaneSource:  # scaffolding
    grid: RectilinearGrid  # scaffolding
    grid_slice_tuple: tuple = ((0, 3), (0, 2), (0, 1))  # scaffolding

    def _local_edge_coordinates(self):
        grid = self.grid  # scaffolding: self._config.resolved_grid
        if grid is None:
            return None
        local_edges = []
        for axis in range(3):
            lower, upper = self.grid_slice_tuple[axis]
            edges = grid.edges(axis)[lower : upper + 1]
            local_edges.append(edges - edges[0])
        return tuple(local_edges)


@jax.jit  # scaffolding: the simulation is jitted with the grid as a pytree argument
def source_mode(grid, permittivities):  # scaffolding
    source = ModePlaneSource(grid=grid)  # scaffolding
    edges = source._local_edge_coordinates()  # scaffolding
    return compute_mode(permittivities, transverse_coords=(edges[0], edges[1]))  # scaffolding


grid = RectilinearGrid(  # scaffolding: the PR's regression-test grid
    x_edges=jnp.asarray([0.0, 1e-6, 3e-6, 6e-6]),
    y_edges=jnp.asarray([0.0, 2e-6, 5e-6]),
    z_edges=jnp.asarray([0.0, 1e-6]),
)
try:  # scaffolding
    for scale in (1.0, 2.0, 3.0):  # scaffolding
        source_mode(grid, scale * jnp.ones((1, 3, 2, 1)))  # scaffolding
    _report({"jit(source_mode)"}, 3)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
