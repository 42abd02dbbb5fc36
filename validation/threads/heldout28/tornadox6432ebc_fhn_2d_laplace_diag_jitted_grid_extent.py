# source: https://github.com/pnkraemer/tornadox/commit/6432ebcf929d2e2cb0bd94aabfc73b115520cd4b
# expect: trace-time-error at line 131
# runtime: ERROR TypeError
# why: _laplace_2d_diag is decorated with @jax.jit, so the grid size nx that the jitted df_diag passes as grid_extent becomes a tracer and jnp.ones(grid_extent - 2) gets a traced shape: TypeError while tracing.
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



# tornadox/ivp.py at the parent of 6432ebc (imports, grid helpers, Laplace operators, InitialValueProblem, fhn_2d)
"""Initial value problems and examples."""


import itertools
from collections import namedtuple
from typing import Callable, Optional, Union

import jax
import jax.numpy as jnp

jax.ops.index_update = lambda x, idx, y: x.at[idx].set(y)  # scaffolding: jax.ops.index_update (2021 API) was removed from jax


def _shifted_indices_on_vectorized_2d_grid(nx, ny):
    """The following generates the following indices for indexing a vectorized 2D grid:
    * interior (center)
    * interior shifted one index to the {top, bottom, left, right}
    (in an admittedly very convoluted way)

    This is needed for finite-difference discretization on vectorized 2d PDEs

    Parameters
    ----------
    nx: int
        Number of grid-points per row in the 2d grid
    ny: int
        Number of grid-points per column in the 2d grid

    Returns
    -------
    1D indices to index the vectorized 2D grid

    See also
    --------
    _laplace_2d (below). This probably explains best what this method here is good for.
    """

    center = jnp.ravel_multi_index(
        tuple(
            jnp.array(idcs)
            for idcs in zip(
                *itertools.product(jnp.arange(1, ny - 1), jnp.arange(1, nx - 1))
            )
        ),
        dims=(ny, nx),
    )
    top = jnp.ravel_multi_index(
        tuple(
            jnp.array(idcs)
            for idcs in zip(
                *itertools.product(jnp.arange(0, ny - 2), jnp.arange(1, nx - 1))
            )
        ),
        dims=(ny, nx),
    )
    bottom = jnp.ravel_multi_index(
        tuple(
            jnp.array(idcs)
            for idcs in zip(
                *itertools.product(jnp.arange(2, ny), jnp.arange(1, nx - 1))
            )
        ),
        dims=(ny, nx),
    )
    left = jnp.ravel_multi_index(
        tuple(
            jnp.array(idcs)
            for idcs in zip(
                *itertools.product(jnp.arange(1, ny - 1), jnp.arange(0, nx - 2))
            )
        ),
        dims=(ny, nx),
    )
    right = jnp.ravel_multi_index(
        tuple(
            jnp.array(idcs)
            for idcs in zip(
                *itertools.product(jnp.arange(1, ny - 1), jnp.arange(2, nx))
            )
        ),
        dims=(ny, nx),
    )

    return center, top, bottom, left, right


@jax.jit
def _laplace_2d(flattened_grid, center, top, bottom, left, right, dx):
    """2D Laplace operator on a vectorized 2d grid."""

    return (
        flattened_grid[top]
        + flattened_grid[bottom]
        + flattened_grid[left]
        + flattened_grid[right]
        - 4.0 * flattened_grid[center]
    ) / dx ** 2


@jax.jit
def _laplace_2d_diag(grid_extent):
    part = jnp.pad(
        -4.0 * jnp.ones(grid_extent - 2),
        pad_width=1,
        mode="constant",
        constant_values=0.0,
    )
    main_diag = jnp.pad(
        jnp.tile(part, grid_extent - 2),
        pad_width=grid_extent,
        mode="constant",
        constant_values=0.0,
    )
    return main_diag


class InitialValueProblem(
    namedtuple(
        "_InitialValueProblem", "f t0 tmax y0 df df_diagonal", defaults=(None, None)
    )
):
    """Initial value problems."""

    @property
    def dimension(self):
        if jnp.isscalar(self.y0):
            return 1
        return self.y0.shape[0]

    @property
    def t_span(self):
        return self.t0, self.tmax


def fhn_2d(
    t0=0.0, tmax=20.0, y0=None, bbox=None, dx=0.02, a=2.8e-4, b=5e-3, k=-0.005, tau=0.1
):
    """Source: https://ipython-books.github.io/124-simulating-a-partial-differential-equation-reaction-diffusion-systems-and-turing-patterns/"""

    if bbox is None:
        bbox = [[0.0, 0.0], [1.0, 1.0]]

    ny, nx = int((bbox[1][0] - bbox[0][0]) / dx), int((bbox[1][1] - bbox[0][1]) / dx)
    if ny != nx:
        raise ValueError(
            f"The diagonal jacobian only works for quadratic spatial grids. Got {bbox}."
        )
    key = jax.random.PRNGKey(0)
    if y0 is None:
        u0 = jax.random.uniform(key, shape=(ny * nx,))
        _, key = jax.random.split(key)
        v0 = jax.random.uniform(key, shape=(ny * nx,))
        y0 = jnp.concatenate((u0, v0))

    center, top, bottom, left, right = _shifted_indices_on_vectorized_2d_grid(nx, ny)

    @jax.jit
    def fhn_2d(_, x):
        u, v = jnp.split(x, 2)

        u_interior = (
            a * _laplace_2d(u, center, top, bottom, left, right, dx)
            + u[center]
            - u[center] ** 3
            - v[center]
            + k
        )
        v_interior = (
            b * _laplace_2d(v, center, top, bottom, left, right, dx)
            + u[center]
            - v[center]
        ) / tau
        u_new = jax.ops.index_update(jnp.zeros_like(u), center, u_interior)
        v_new = jax.ops.index_update(jnp.zeros_like(v), center, v_interior)
        return jnp.concatenate((u_new, v_new))

    dfhn_2d = jax.jit(jax.jacfwd(fhn_2d, argnums=1))

    @jax.jit
    def df_diag(_, x):
        u, v = jnp.split(x, 2)
        dlaplace = _laplace_2d_diag(grid_extent=nx)
        d_u = a * dlaplace + 1.0 - 3.0 * u ** 2
        d_v = (b * dlaplace - 1.0) / tau
        return jnp.concatenate((d_u, d_v))

    return InitialValueProblem(
        f=fhn_2d,
        t0=t0,
        tmax=tmax,
        y0=y0,
        df=dfhn_2d,
        df_diagonal=df_diag,
    )


# ---- scaffolding: build the FitzHugh-Nagumo problem on a 10x10 grid and evaluate f and the diagonal Jacobian ----
calls = 0  # scaffolding
try:  # scaffolding
    ivp = fhn_2d(dx=0.1)  # scaffolding
    for t in (0.0, 0.5):  # scaffolding
        ivp.f(t, ivp.y0).block_until_ready()  # scaffolding
        ivp.df_diagonal(t, ivp.y0).block_until_ready()  # scaffolding
        calls += 1  # scaffolding
    _report({"jit(df_diag)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
