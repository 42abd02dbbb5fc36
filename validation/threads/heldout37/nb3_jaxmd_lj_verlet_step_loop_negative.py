# source: https://github.com/comecattin/JAX-MD/blob/f25d4eb8b0a98797c310bd99d305aaccaafe0b64/src/jax_md/dynamics.py
# expect: none
# runtime: COMPILES 1 CALLS 8
# why: The module-level @jax.jit velocity-Verlet step is called from a Python for loop with Python-float dt, box_size and keyword epsilon/sigma; all of these are traced with stable weak-typed scalar avals, so step compiles once for the whole run.

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


#!/usr/bin/env python3
"""Molecular dynamics."""
from functools import partial
from typing import Tuple

import jax
import jax.numpy as jnp

# (imports of jax_md.visual, jax_md.parser_md.Parser and .writer dropped: plotting, YAML parsing and .arc output cut)


@jax.jit
def lennard_jones(
        r: jnp.ndarray,
        epsilon: float = 1.0,
        sigma: float = 1.0,
    ) -> jnp.ndarray:
    """Lenard Jones potential.

    Parameters
    ----------
    r : jnp.ndarray
        Distance between the particules.
        The shape of the array is (n, n) where n is the number of particules.
    epsilon : float, optional
        Epsilon parameter for the lennard-jones potential, by default 1.0
    sigma : float, optional
        Sigma parameter for the lennar-jones potential, by default 1.0

    Returns
    -------
    jnp.ndarray
        Potential energy between the particules.
    """
    r6 = (sigma / r) ** 6
    r12 = r6 ** 2
    return 4.0 * epsilon * (r12 - r6)


@jax.jit
def compute_forces_and_potential_energy(
    pos: jnp.ndarray,
    box_size: float,
    epsilon: float = 1.0,
    sigma: float = 1.0
    ) -> Tuple[jnp.ndarray, float]:
    """Compute the forces and the potential energy.

    This compute the forces and the potential energy between the particules
    for the Lennard-Jones potential, using the grad from the jax library.

    Parameters
    ----------
    pos : jnp.ndarray
        Position of the particules.
        The shape of the array is (n, 3) where n is the number of particules.
    box_size : float
        Size of the simulation box.
    epsilon : float, optional
        Epsilon parameter for the Lennard-Jones potential, by default 1.0
    sigma : float, optional
        Sigma parameter for the Lennar-Jones potential, by default 1.0

    Returns
    -------
    f : jnp.ndarray
        Forces between the particules.
        The shape of the array is (n, 3) where n is the number of particules.
    potential_energy : float
        Potential energy of the system.

    """
    num_particule = pos.shape[0]
    # distance matrix in 3D
    rij = pos[:, None, :] - pos[None, :, :]
    # PBC
    rij = rij - jnp.round(rij / box_size) * box_size
    # Distance matrix
    r = jnp.sqrt(jnp.sum(rij ** 2, axis=-1))
    r = jnp.where(r < 1e-6, 1e-6, r)
    # Unit vector
    uij = rij / r[:, :, None]

    # Compute the forces from the grad
    lennard_jones_fixed = partial(lennard_jones, epsilon=epsilon, sigma=sigma)
    grad = jax.grad(lennard_jones_fixed)
    f = - jax.vmap(grad)(r.reshape(-1))
    f = f.at[::num_particule + 1].set(0)
    f = f.reshape((num_particule, num_particule))[:, :, None] * uij
    f = jnp.sum(f, axis=1)

    # Potential energy
    potential_energy = jnp.sum(
        lennard_jones(
            r,
            epsilon=epsilon,
            sigma=sigma
            ).reshape(-1).at[::num_particule + 1].set(0)
    )

    return f, potential_energy


@jax.jit
def step(
        position: jnp.ndarray,
        velocity: jnp.ndarray,
        force: jnp.ndarray,
        dt: float,
        box_size: float,
        epsilon: float = 1.0,
        sigma: float = 1.0
    ) -> Tuple[jnp.ndarray, jnp.ndarray, jnp.ndarray]:
    """Updade the position, velocity and force of the system.

    This function update the position, velocity and force of the system using
    the velocity Verlet algorithm.

    Parameters
    ----------
    position : jnp.ndarray
        Position of the particules.
        The shape of the array is (n, 3) where n is the number of particules.
    velocity : jnp.ndarray
        Velocity of the particules.
        The shape of the array is (n, 3) where n is the number of particules.
    force : jnp.ndarray
        Forces between the particules.
        The shape of the array is (n, 3) where n is the number of particules.
    dt : float
        Time step.
    box_size : float
        Size of the simulation box.
    epsilon : float, optional
        Epsilon parameter for the Lennard-Jones potential, by default 1.0
    sigma : float, optional
        Sigma parameter for the Lennar-Jones potential, by default 1.0

    Returns
    -------
    Tuple[jnp.ndarray, jnp.ndarray, jnp.ndarray]
        New position, velocity and force of the system.
    """
    # Update the position
    new_position = position + velocity * dt + 0.5 * force * dt ** 2
    new_position = jnp.mod(new_position, box_size)
    # Compute the new forces
    new_force, _ = compute_forces_and_potential_energy(
        new_position,
        box_size,
        sigma=sigma,
        epsilon=epsilon
    )
    # Update the velocity
    new_velocity = velocity + 0.5 * (force + new_force) * dt
    return new_position, new_velocity, new_force


def dynamics(
        position: jnp.ndarray,
        velocity: jnp.ndarray,
        dt: float,
        box_size: float,
        epsilon: float = 1.0,
        sigma: float = 1.0,
        n_steps: int = 1000,
        writing_step: int = 100,
        printing_step: int = 100,
        center: bool = True,
    ) -> Tuple[jnp.ndarray, list, list, list]:
    """Run the dynamics of the system.

    Parameters
    ----------
    position : jnp.ndarray
        Position of the particules.
        The shape of the array is (n, 3) where n is the number of particules.
    velocity : jnp.ndarray
        Velocity of the particules.
        The shape of the array is (n, 3) where n is the number of particules.
    dt : float
        Time step.
    box_size : float
        Size of the simulation box.
    epsilon : float, optional
        Epsilon parameter for the Lennard-Jones potential, by default 1.0
    sigma : float, optional
        Sigma parameter for the Lennar-Jones potential, by default 1.0
    n_steps : int, optional
        Number of time steps, by default 1000
    writing_step : int, optional
        Write the system position every writing_step's time step.
    printing_step : int, optional
        Print the system energy every printing_step's time step.
    center : bool, optional
        Center the position of the particules in the box, by default True

    Returns
    -------
    position_list : jnp.ndarray
        List of the position of the particules at each time step.
    kinetic_energy_list : list
        List of the kinetic energy of the system at each time step.
    potential_energy_list : list
        List of the potential energy of the system at each time step.
    total_energy_list : list
        List of the total energy of the system at each time step.
    """
    force, _ = compute_forces_and_potential_energy(
        position,
        box_size,
        sigma=sigma,
        epsilon=epsilon
    )
    position_list = []
    kinetic_energy_list = []
    potential_energy_list = []
    total_energy_list = []

    for step_i in range(n_steps):
        position, velocity, force = step(
            position,
            velocity,
            force,
            dt,
            box_size,
            sigma=sigma,
            epsilon=epsilon
        )

        if step_i % printing_step == 0:
            kinetic_energy = compute_kinetic_energy(velocity)
            _, potential_energy = compute_forces_and_potential_energy(
                position,
                box_size,
                sigma=sigma,
                epsilon=epsilon
            )
            kinetic_energy_list.append(kinetic_energy)
            potential_energy_list.append(potential_energy)
            total_energy_list.append(kinetic_energy + potential_energy)
            print(
                f'Step {step_i} done.\t',
                f'E_kin = {kinetic_energy}\t',
                f'E_pot = {potential_energy}',
                )

        if step_i % writing_step == 0:
            print('Saving positions')
            if center:
                position_list.append(
                    position_center_box(position,box_size=box_size)
                )
            else:
                position_list.append(position)

    return (
        jnp.array(position_list),
        kinetic_energy_list,
        potential_energy_list,
        total_energy_list
    )


@jax.jit
def compute_kinetic_energy(velocity: jnp.ndarray) -> float:
    """Compute the kinetic energy of the system.

    Parameters
    ----------
    velocity : jnp.ndarray
        Velocity of the particules.

    Returns
    -------
    float
        Kinetic energy of the system.
    """
    return jnp.sum(velocity ** 2)


def position_center_box(
        position: jnp.ndarray,
        box_size: float
    ) -> jnp.ndarray:
    """Center the position of the particules in the box.

    Parameters
    ----------
    position : jnp.ndarray
        Position of the particules.
        The shape of the array is (n, 3) where n is the number of particules.
    box_size : float
        Size of the simulation box.

    Returns
    -------
    jnp.ndarray
        Centered position of the particules.
    """
    return position - jnp.floor(position / box_size) * box_size
        

# --- main(): Parser().get_dynamics_kwargs() from example/data/input_file/input.yaml, system from
# Parser.initialize_system (scaffolding: stands in for the parser and the example XYZ file) ---
def initialize_system(num_particule, box_size, key):  # scaffolding: Parser.initialize_system
    key, subkey_pos, subkey_vel = jax.random.split(key, 3)
    pos = jax.random.uniform(subkey_pos, (num_particule, 3)) * box_size
    vel = jax.random.normal(subkey_vel, (num_particule, 3))
    return pos, vel


pos, vel = initialize_system(8, 10.0, jax.random.PRNGKey(0))  # scaffolding
kwargs = dict(position=pos, velocity=vel, box_size=10.0, dt=0.001, n_steps=8,  # scaffolding: n_steps 100000 cut to 8
              epsilon=1., sigma=1., printing_step=2, writing_step=4, center=True)  # scaffolding: printing 10, writing 100
(
    pos_list,
    kinetic_energy_list,
    potential_energy_list,
    total_energy_list
) = dynamics(**kwargs)
_report({"jit(step)"}, kwargs["n_steps"])
