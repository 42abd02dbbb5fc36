# source: https://github.com/pmocz/nbody-jax/blob/4e19adf413f13c93f2087f930dad0aa8f8b14de3/nbody.py
# expect: none
# runtime: COMPILES 1 CALLS 100
# why: The main loop passes the Python loop counter i to the jitted leapfrog(i, state); a Python int argument is traced (weak int32), so the 100 calls compile once.

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
import jax
import jax.numpy as jnp
import numpy as np
# scaffolding: matplotlib and jaxopt imports cut (plots and the ScipyMinimize inverse problem are not run)

"""
Create Your Own Differentiable N-body Simulation (With Python/JAX)
Philip Mocz (2025) @pmocz

Simulate orbits of stars interacting due to gravity.
The code evolves particles according to pairwise interactions following Newton's Law of Gravity.

Auto-differentiability allows for solving inverse problems!
E.g. find the initial velocities of particles that result in a target distribution at t=1.0
"""

# Global parameters
N = 360  # number of particles
t_end = 1.0  # time at which simulation ends
dt = 0.01  # timestep
softening = 0.1  # softening length
G = 1.0  # Newton's gravitational constant
Nt = int(jnp.ceil(t_end / dt))  # number of timesteps


@jax.jit
def get_acc(pos, mass):
    """
    Calculate the acceleration on each particle according to Newton's Law
    pos        is an N x 3 matrix of positions
    mass       is an N x 1 vector of masses
    acc        is an N x 3 matrix of accelerations
    """
    # positions r = [x,y,z] for all particles
    x = pos[:, 0:1]
    y = pos[:, 1:2]
    z = pos[:, 2:3]

    # matrix that stores all pairwise particle separations: r_j - r_i
    dx = x.T - x
    dy = y.T - y
    dz = z.T - z

    # matrix that stores 1/r^3 for all particle pairwise particle separations
    inv_r3 = (dx**2 + dy**2 + dz**2 + softening**2) ** (-1.5)

    # acceleration components
    ax = G * (dx * inv_r3) @ mass
    ay = G * (dy * inv_r3) @ mass
    az = G * (dz * inv_r3) @ mass

    # pack together the acceleration components
    acc = jnp.hstack((ax, ay, az))

    return acc


@jax.jit
def get_energy(pos, vel, mass):
    """
    Get kinetic energy (KE) and potential energy (PE) of simulation
    pos   is N x 3 matrix of positions
    vel   is N x 3 matrix of velocities
    mass  is an N x 1 vector of masses
    KE    is the kinetic energy of the system
    PE    is the potential energy of the system
    """
    # Kinetic Energy:
    KE = 0.5 * jnp.sum(jnp.sum(mass * vel**2))

    # Potential Energy:

    # positions r = [x,y,z] for all particles
    x = pos[:, 0:1]
    y = pos[:, 1:2]
    z = pos[:, 2:3]

    # matrix that stores all pairwise particle separations: r_j - r_i
    dx = x.T - x
    dy = y.T - y
    dz = z.T - z

    # matrix that stores 1/r for all particle pairwise particle separations
    inv_r = 1.0 / jnp.sqrt(dx**2 + dy**2 + dz**2)

    # sum over upper triangle, to count each interaction only once
    PE = G * jnp.sum(jnp.sum(jnp.triu(-(mass * mass.T) * inv_r, 1)))

    return KE, PE


@jax.jit
def leapfrog(i, state):
    """
    Take one timestep of the leapfrog integration scheme
    i          is the iteration number
    state      is a tuple of (pos, vel, acc, mass)
    """
    pos, vel, acc, mass = state

    # (1/2) kick
    vel += acc * dt / 2.0

    # drift
    pos += vel * dt

    # update accelerations
    acc = get_acc(pos, mass)

    # (1/2) kick
    vel += acc * dt / 2.0

    return pos, vel, acc, mass


def main():
    """N-body simulation with Inverse Problem
    Find initial velocities that result in a target distribution (a heart) at t = 1.0
    """

    # Set initial conditions
    np.random.seed(17)  # set the random number generator seed
    mass = 20.0 * jnp.ones((N, 1)) / N  # total mass of particles is 20
    pos = jnp.array(np.random.randn(N, 3))  # randomly selected positions and velocities
    vel = jnp.array(np.random.randn(N, 3))
    vel -= jnp.mean(mass * vel, 0) / jnp.mean(mass)

    # scaffolding: the heart-shaped target and the jaxopt ScipyMinimize fit of the initial velocities
    # (loss_function -> do_simulation) are cut; the random velocities above stand in for sol.params
    acc = get_acc(pos, mass)

    # calculate initial energy of system
    KE, PE = get_energy(pos, vel, mass)

    # save energies, particle orbits for plotting trails
    pos_save = np.zeros((N, 3, Nt + 1))
    KE_save = np.zeros(Nt + 1)
    PE_save = np.zeros(Nt + 1)
    t_all = np.arange(Nt + 1) * dt
    pos_save[:, :, 0] = pos
    KE_save[0] = KE
    PE_save[0] = PE

    # Simulation Main Loop
    for i in range(Nt):
        pos, vel, acc, mass = leapfrog(i, (pos, vel, acc, mass))

        # get energy of system
        KE, PE = get_energy(pos, vel, mass)

        # save energies, positions for plotting trail
        pos_save[:, :, i + 1] = pos
        KE_save[i + 1] = KE
        PE_save[i + 1] = PE

        # scaffolding: real-time plotting cut

    _report({"jit(leapfrog)"}, Nt)  # scaffolding


if __name__ == "__main__":
    main()
