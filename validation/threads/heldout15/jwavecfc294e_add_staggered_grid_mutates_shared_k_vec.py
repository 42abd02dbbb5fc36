# source: https://github.com/ucl-bug/jwave/commit/cfc294ec61bf55bbb468aa1c1bb339a3dbf7b734
# expect: stale-closure at line 145
# runtime: ERROR UnexpectedTracerError
# why: add_staggered_grid aliases the global grid's k_vec list and writes the staggered vectors into it while the first jitted simulation is traced, so traced values leak into the global grid; the next jitted function that uses the grid (the loss gradient) finds the leaked tracers and raises UnexpectedTracerError.

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
from functools import reduce
from typing import List, NamedTuple, Tuple

import jax
from jax import numpy as jnp
from enum import IntEnum


# jwave/geometry.py (before the commit; kGrid cut after add_staggered_grid)
class Staggered(IntEnum):
    r"""Staggering flags as enumerated constants. This makes sure
    that we are consistent when asking staggered computations
    across different spectral functions

    Attributes:
        NONE: Unstaggered
        FORWARD: Staggered forward
        BACKWARD: Staggered backward
    """
    NONE = 0
    FORWARD = 1
    BACKWARD = 2


class kGrid(NamedTuple):
    r"""
    A reference grid object for spatial and spectral calculations

    Attributes:
        N (Tuple[int]): grid dimensions
        dx (Tuple[int]): spatial sampling
        k_vec (List[jnp.ndarray]):
        k_staggered (List[jnp.ndarray]):
        k_with_kspaceop (dict):
        space_axis (List[jnp.ndarray]):

    """
    N: Tuple[int]
    dx: Tuple[float]
    k_vec: List[List[jnp.ndarray]]
    cell_area: float
    k_with_kspaceop: List[jnp.ndarray]
    space_axis: List[jnp.ndarray]
    k_magnitude: jnp.ndarray

    @property
    def domain_size(self):
        r"""Returns the lenght of the grid sides

        !!! example
            ```python
            L = grid.domain_size
            ```

        """
        return list(map(lambda x, y: x * y, zip(self.N, self.dx)))

    @property
    def has_staggered_grid(self):
        return (self.k_vec[Staggered.BACKWARD] is not None) and (
            self.k_vec[Staggered.FORWARD] is not None
        )

    @staticmethod
    def make_grid(N, dx):
        r"""Constructs a `kGrid` object.

        Args:
                N (tuple(int)): The number of gridpoints per axis
                dx (tuple(int)): The sampling interval for each axis

        !!! example
            ```python
            grid = kGrid.make_grid(N=(64,64), dx=(0.3, 0.3))
            ```

        """

        def spatial_axis(n, delta):
            if n % 2 == 0:
                return jnp.arange(0, n) * delta - delta * n / 2
            else:
                return jnp.arange(0, n) * delta - delta * (n - 1) / 2

        axis = [spatial_axis(n, delta) for n, delta in zip(N, dx)]

        def k_axis(n, d):
            return jnp.fft.fftfreq(n, d) * 2 * jnp.pi

        k_vec_plain = [k_axis(n, delta) for n, delta in zip(N, dx)]
        k_vec = [None] * 3
        k_vec[Staggered.NONE] = k_vec_plain
        cell_area = reduce(lambda x, y: x * y, dx)

        return kGrid(
            N=N,
            dx=dx,
            k_vec=k_vec,
            cell_area=cell_area,
            k_with_kspaceop=None,
            space_axis=axis,
            k_magnitude=None,
        )

    def add_staggered_grid(self):
        r"""Produces a copy of the grid with the staggered vectors field set.
        Returns itself if a `k_staggered` grid is already defined.

        !!! example
            ```python
            grid = kGrid.make_grid(N=(64,64), dx=(0.3, 0.3))
            grid = grid.to_staggered()
            ```

        """
        if not self.has_staggered_grid:
            k_vec = self.k_vec
            k_vec[Staggered.BACKWARD] = list(
                map(
                    lambda x: x[0] * jnp.exp(1j * x[0] * x[1] / 2),
                    zip(self.k_vec[Staggered.NONE], self.dx),
                )
            )
            k_vec[Staggered.FORWARD] = list(
                map(
                    lambda x: x[0] * jnp.exp(-1j * x[0] * x[1] / 2),
                    zip(self.k_vec[Staggered.NONE], self.dx),
                )
            )
            return self._replace(k_vec=k_vec)
        else:
            return self


# scaffolding: docs/examples/FWI.ipynb jits a simulation that adds the staggered grid to the global
# `grid` inside the traced function (via simulate_wave_propagation), and later jits the gradient of a
# loss that simulates again; here the "simulation" is one staggered spectral derivative
grid = kGrid.make_grid(N=(32, 32), dx=(0.1, 0.1))


def simulate(grid, speed_of_sound):
    staggered_grid = grid.add_staggered_grid()
    kx = staggered_grid.k_vec[Staggered.BACKWARD][0]
    return jnp.real(jnp.fft.ifft(1j * kx[:, None] * jnp.fft.fft(speed_of_sound, axis=0), axis=0))


@jax.jit
def single_source_simulation(speed_of_sound):
    return simulate(grid, speed_of_sound)


@jax.jit
def loss_grad(speed_of_sound, p_data):
    return jax.grad(lambda c: jnp.sum((simulate(grid, c) - p_data) ** 2))(speed_of_sound)


speed_of_sound = jnp.ones((32, 32)) * 1.5
calls = 0
try:  # scaffolding
    p_data = single_source_simulation(speed_of_sound)
    calls += 1
    g = loss_grad(speed_of_sound * 1.1, p_data)
    calls += 1
    _report({"jit(single_source_simulation)", "jit(loss_grad)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
