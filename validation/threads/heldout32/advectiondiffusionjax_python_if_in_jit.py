# source: https://github.com/pmocz/advectiondiffusion-jax/blob/0d04822dd1effd642d27ead427730657ccc02dd9/advection_diffusion.py
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: do_simulation_jax is jitted and contains a Python for loop with `if update_wind_direction:` and x[i_wind] indexing, but both depend only on the Python loop counter, so tracing succeeds and loss_jax compiles once.

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
import numpy as np

import jax

# jax.config.update("jax_enable_x64", True)   # turn this on to use double precision JAX
import jax.numpy as jnp
from jax import jit
from jax.experimental import sparse

# scaffolding: scipy, jaxopt and matplotlib imports cut (the NumPy version, the optimiser and plots are not run)

"""
Create Your Own Automatically Differentiable Simulation (With Python/JAX)
Philip Mocz (2024), @PMocz

Solve the advection-diffusion equation using a finite difference method
Plug it into an optimization problem to find the wind parameters that maximize pollution at the center of the domain
Use either 'L-BFGS-B' method with finite difference gradient estimates (Numpy/SciPy) or autodiff (JAX) to solve the optimization problem
"""

# Global variables
W = 0.5
diffusivity = 0.05
t_end = 0.25
N = 21  # scaffolding: 61 in the script
M = 50
dx = 1.0 / (N - 1)
dt = t_end / M
t = np.linspace(0, t_end, M + 1)


# === JAX version of the simulation ==========================================


@jit
def initial_condition_jax(x, y):
    # initial condition for the pollution -- JAX version
    return 2.0 * jnp.exp(-100.0 * ((x - 0.25) ** 2 + (y - 0.25) ** 2)) + jnp.exp(
        -150.0 * ((x - 0.65) ** 2 + (y - 0.4) ** 2)
    )


@jit
def do_simulation_jax(x):
    # Solve the advection-diffusion equation with finite difference -- JAX version
    # Keep track of the pollution

    # Construct initial (t=0) solution
    xlin = jnp.linspace(0.0, 1.0, N)
    X, Y = jnp.meshgrid(xlin, xlin)
    U = initial_condition_jax(X, Y)
    U = U.at[0, :].set(0.0)
    U = U.at[-1, :].set(0.0)
    U = U.at[:, 0].set(0.0)
    U = U.at[:, -1].set(0.0)
    U = U.flatten()

    # Keep track of pollution as function of time
    ctr = (N // 2 + 1) * N + N // 2 + 1
    pollution = jnp.zeros(M + 1)
    pollution = pollution.at[0].set(U[ctr])

    # Define boundary indices
    bndry1 = jnp.arange(N)
    bndry2 = (N - 1) * N + jnp.arange(N)
    bndry3 = jnp.arange(N) * N
    bndry4 = jnp.arange(N) * N + N - 1
    bndry = jnp.concatenate((bndry1, bndry2, bndry3, bndry4))

    # Set the initial wind direction
    update_wind_direction = False
    i_wind = 0
    theta = x[i_wind]

    # Construct the matrix (D) and its LU decomposition for the linear system to be solved at each time step
    main_diag = jnp.ones(N**2) * dt * (1.0 / dt + 4.0 * diffusivity / dx**2)
    off_diag1 = (
        jnp.ones(N**2 - 1)
        * dt
        * (W * jnp.cos(theta) / (2.0 * dx) - diffusivity / dx**2)
    )
    off_diag2 = (
        jnp.ones(N**2 - 1)
        * dt
        * (-W * jnp.cos(theta) / (2.0 * dx) - diffusivity / dx**2)
    )
    off_diag3 = (
        jnp.ones(N**2 - N)
        * dt
        * (W * jnp.sin(theta) / (2.0 * dx) - diffusivity / dx**2)
    )
    off_diag4 = (
        jnp.ones(N**2 - N)
        * dt
        * (-W * jnp.sin(theta) / (2.0 * dx) - diffusivity / dx**2)
    )

    D = (
        jnp.diag(main_diag)
        + jnp.diag(off_diag1, 1)
        + jnp.diag(off_diag2, -1)
        + jnp.diag(off_diag3, N)
        + jnp.diag(off_diag4, -N)
    )
    D = D.at[bndry, :].set(0.0)
    D = D.at[bndry, bndry].set(1.0)

    D = sparse.BCOO.fromdense(D, nse=5 * N * N)
    # Note: JAX does not support LU decomposition of sparse matrices, so we use a CG solver (an iterative method) instead
    # B = jax.scipy.linalg.lu_factor(D)  # do an LU decomposition of the matrix

    # Solve for the time evolution
    for i in range(M):
        # update the wind direction every 5 time steps
        update_wind_direction = i > 0 and i % 5 == 0
        if update_wind_direction:
            i_wind += 1
            theta = x[i_wind]
            off_diag1 = (
                jnp.ones(N**2 - 1)
                * dt
                * (W * jnp.cos(theta) / (2.0 * dx) - diffusivity / dx**2)
            )
            off_diag2 = (
                jnp.ones(N**2 - 1)
                * dt
                * (-W * jnp.cos(theta) / (2.0 * dx) - diffusivity / dx**2)
            )
            off_diag3 = (
                jnp.ones(N**2 - N)
                * dt
                * (W * jnp.sin(theta) / (2.0 * dx) - diffusivity / dx**2)
            )
            off_diag4 = (
                jnp.ones(N**2 - N)
                * dt
                * (-W * jnp.sin(theta) / (2.0 * dx) - diffusivity / dx**2)
            )

            D = (
                jnp.diag(main_diag)
                + jnp.diag(off_diag1, 1)
                + jnp.diag(off_diag2, -1)
                + jnp.diag(off_diag3, N)
                + jnp.diag(off_diag4, -N)
            )
            D = D.at[bndry, :].set(0.0)
            D = D.at[bndry, bndry].set(1.0)

            D = sparse.BCOO.fromdense(D, nse=5 * N * N)
            # B = jax.scipy.linalg.lu_factor(D)  # do an LU decomposition of the matrix

        # solve the system
        # U = jax.scipy.linalg.lu_solve(B, U)
        U, _ = jax.scipy.sparse.linalg.cg(D, U, x0=U, tol=1e-8)

        # record pollution at center of domain
        pollution = pollution.at[i + 1].set(U[ctr])

    pollution = pollution.at[M].set(U[ctr])

    t = jnp.linspace(0, t_end, M + 1)
    pollution_total = jnp.trapezoid(pollution, t)

    return U, pollution, pollution_total


@jit
def loss_jax(x):
    # loss function that wraps the simulation
    _, _, pollution_total = do_simulation_jax(x)

    return -pollution_total


# === Main ==================================================================


def main():
    # Wind parameters (initial guess)
    x0 = [np.pi / 2.0] * 10

    # scaffolding: jaxopt's ScipyBoundedMinimize(fun=loss_jax, method="L-BFGS-B") evaluates loss_jax at
    # a sequence of wind parameters; three evaluations stand in for it
    for k in range(3):  # scaffolding
        x = jnp.array(x0) + 0.1 * k  # scaffolding
        print("loss:", loss_jax(x))  # scaffolding
    _report({"jit(loss_jax)", "jit(do_simulation_jax)"}, 3)  # scaffolding


if __name__ == "__main__":
    main()
