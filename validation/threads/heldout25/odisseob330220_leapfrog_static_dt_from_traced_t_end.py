# source: https://github.com/vepe99/Odisseo/commit/b330220e7cc897898a59ea591a771d7196a9dd1c
# expect: unhashable-static at line 419
# runtime: ERROR ValueError
# why: leapfrog marks dt static, but inside the jitted time_integration dt = params.t_end / config.num_timesteps is traced (params is not static), so the call raises ValueError: non-hashable static argument (a tracer).
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


# ===== jdgsim/__init__.py =====
from typing import Optional, Tuple, Callable, Union, List
from functools import partial

import jax
import jax.numpy as jnp
from jax import vmap, jit
from jax import random





def construct_initial_state(position, velocity):
    state = jnp.zeros((position.shape[0], 2, position.shape[1]))
    state = state.at[:, 0, :].set(position)
    state = state.at[:, 1, :].set(velocity)
    
    return state

    
# ===== jdgsim/dynamics.py =====
from typing import Optional, Tuple, Callable, Union, List
from functools import partial

import jax
import jax.numpy as jnp
from jax import vmap, jit
from jax import random

DIRECT_ACC = 0
DIRECT_ACC_LAXMAP = 1

# @partial(jax.jit, static_argnames=['config'])
# def single_body_acc(particle_i, particle_j, mass_i, mass_j, config, params) -> jnp.ndarray:
#     """
#     Compute acceleration of particle_i due to particle_j.
    
#     Parameters
#     ----------
#     particle_i : jnp.ndarray
#         Position and velocity of particle_i.
#     particle_j : jnp.ndarray
#         Position and velocity of particle_j.
#     mass_i : float
#         Mass of particle_i.
#     mass_j : float
#         Mass of particle_j.
#     config: NamedTuple
#         Configuration parameters.
#     params: NamedTuple
#         Simulation parameters.
    
#     Returns
#     -------
#     Tuple
#         - Acceleration: jnp.ndarray 
#             Acecleration of particle_i due to particle_j.
#         - Potential: jnp.ndarray
#             Potential energy of particle_i due to particle_j
#     """

#     r_ij = particle_i[0, :] - particle_j[0, :]
#     # r_mag = jnp.linalg.norm(r_ij)   # Avoid division by zero and close encounter with config.softening

#     r_mag = jnp.sqrt(jnp.sum(r_ij**2 + config.softening**2))
        
#     return - params.G * (mass_j) * (r_ij/(r_mag**2 + config.softening**2)**(3/2)), - params.G * mass_j / (r_mag + config.softening)


@partial(jax.jit, static_argnames=['config'])
def single_body_acc(particle_i, particle_j, mass_i, mass_j, config, params) -> jnp.ndarray:
    """
    Compute acceleration of particle_i due to particle_j.
    
    Parameters
    ----------
    particle_i : jnp.ndarray
        Position and velocity of particle_i.
    particle_j : jnp.ndarray
        Position and velocity of particle_j.
    mass_i : float
        Mass of particle_i.
    mass_j : float
        Mass of particle_j.
    config: NamedTuple
        Configuration parameters.
    params: NamedTuple
        Simulation parameters.
    
    Returns
    -------
    Tuple
        - Acceleration: jnp.ndarray 
            Acecleration of particle_i due to particle_j.
        - Potential: jnp.ndarray
            Potential energy of particle_i due to particle_j
    """
    r_ij = particle_i[0, :] - particle_j[0, :]
    condtion = jnp.all(r_ij == 0.0)

    def same_position():
        return jnp.zeros(3), 0.0
    def different_position():
        r_mag = jnp.linalg.norm(r_ij)
        acc = - params.G * mass_j * (r_ij/(r_mag**2 + config.softening**2)**(3/2))
        pot = - params.G * mass_j / (r_mag**2 + config.softening**2)**(1/2)
        return acc, pot
    return jax.lax.cond(condtion, same_position, different_position)
    
    

@partial(jax.jit, static_argnames=['config', 'return_potential'])
def direct_acc(state, mass, config, params, return_potential=False):
    """
    Compute acceleration of all particles due to all other particles by vmap of the single_body_acc function.

    Parameters
    ----------
    state : jnp.ndarray
        Array of shape (N_particles, 6) representing the positions and velocities of the particles.
    mass : jnp.ndarray
        Array of shape (N_particles,) representing the masses of the particles.
    config: NamedTuple
        Configuration parameters.
    params: NamedTuple
        Simulation parameters.
    
    Returns
    -------
    Tuple
        - Acceleration: jnp.ndarray 
            Acecleration of all particles due to all other particles.
        - Potential: jnp.ndarray
            Potential energy of all particles due to all other particles
            Returned only if return_potential is True.   
    
    """

    def net_force_on_body(particle_i, mass_i):
        
        acc, potential = vmap(lambda particle_j, mass_j: single_body_acc(particle_i, particle_j, mass_i, mass_j, config, params))(state, mass)
        if return_potential:
            return jnp.sum(acc, axis=0), jnp.sum(potential, )
        else:
            return jnp.sum(acc, axis=0)

    return vmap(net_force_on_body)(state, mass)



@partial(jax.jit, static_argnames=['config', 'return_potential'])
def direct_acc_laxmap(state, mass, config, params, return_potential=False, ):
    """
    Compute acceleration of all particles due to all other particles by vmap of the single_body_acc function.

    Parameters
    ----------
    state : jnp.ndarray
        Array of shape (N_particles, 6) representing the positions and velocities of the particles.
    mass : jnp.ndarray
        Array of shape (N_particles,) representing the masses of the particles.
    config: NamedTuple
        Configuration parameters.
    params: NamedTuple
        Simulation parameters.
    
    Returns
    -------
    Tuple
        - Acceleration: jnp.ndarray 
            Acecleration of all particles due to all other particles.
        - Potential: jnp.ndarray
            Potential energy of all particles due to all other particles
            Returned only if return_potential is True.   
    
    """

    def net_force_on_body(state_and_mass):
        particle_i, mass_i = state_and_mass

        if config.double_map:
            @partial(jax.jit,)
            def single_body_acc_lax(state_and_mass_j):
                particle_j, mass_j = state_and_mass_j
                return single_body_acc(particle_i, particle_j, mass_i, mass_j, config, params)
            acc, potential = jax.lax.map(single_body_acc_lax, (state, mass), batch_size=config.batch_size)
        else:
            acc, potential = vmap(lambda particle_j, mass_j: single_body_acc(particle_i, particle_j, mass_i, mass_j, config, params))(state, mass)

        if return_potential:
            return jnp.sum(acc, axis=0), jnp.sum(potential, )
        else:
            return jnp.sum(acc, axis=0)

    return jax.lax.map(net_force_on_body, (state, mass), batch_size=config.batch_size)



# ===== jdgsim/potentials.py =====
from typing import Optional, Tuple, Callable, Union, List
from functools import partial

import jax
import jax.numpy as jnp
from jax import vmap, jit, lax
from jax import random

NFW_POTENTIAL = 0
POINT_MASS = 1
MN_POTENTIAL = 2


@partial(jax.jit, static_argnames=['config', 'return_potential'])
def combined_external_acceleration(state, config, params, return_potential=False):
    #TO BE IMPLEMENTED, VECTORIZE THE SUM OVER ALL THE EXTERNAL ACCELERATIONS FUNCTIONS

    total_external_acceleration = jnp.zeros_like(state[:, 0])
    total_external_potential = jnp.zeros_like(config.N_particles)
    if return_potential:
        if NFW_POTENTIAL in config.external_accelerations:
            acc_NFW, pot_NFW = NFW(state, config, params, return_potential=True)
            total_external_acceleration = total_external_acceleration + acc_NFW
            total_external_potential = total_external_potential +   pot_NFW
        return total_external_acceleration, total_external_potential
    else:
        if NFW_POTENTIAL in config.external_accelerations:
            total_external_acceleration = total_external_acceleration + NFW(state, config, params)
        return total_external_acceleration
    
@partial(jax.jit, static_argnames=['config', 'return_potential'])    
def combined_external_acceleration_vmpa_switch(state, config, params, return_potential=False):
    total_external_acceleration = jnp.zeros_like(state[:, 0])
    total_external_potential = jnp.zeros_like(config.N_particles)
    state_tobe_vmap  = jnp.repeat(state[jnp.newaxis, ...], repeats=len(config.external_accelerations), axis=0)
    if return_potential:
        # The POTENTIAL_LIST NEEDS TO BE IN THE SAME ORDER AS THE INTEGER VALUES 
        POTENTIAL_LIST = [lambda state: NFW(state, config=config, params=params, return_potential=True), 
                        lambda state: point_mass(state, config=config, params=params, return_potential=True),
                        lambda state: MyamotoNagai(state, config=config, params=params, return_potential=True)]
        vmap_function = vmap(lambda i, state: lax.switch(i, POTENTIAL_LIST, state))
        external_acc, external_pot = vmap_function(jnp.array(config.external_accelerations), state_tobe_vmap)
        total_external_acceleration = jnp.sum(external_acc, axis=0)
        total_external_potential = jnp.sum(external_pot, axis=0)
        return total_external_acceleration, total_external_potential
    else:
        POTENTIAL_LIST = [lambda state: NFW(state, config=config, params=params, return_potential=False),
                          lambda state: point_mass(state, config=config, params=params, return_potential=False),
                          lambda state: MyamotoNagai(state, config=config, params=params, return_potential=False)]
        vmap_function = vmap(lambda i, state: lax.switch(i, POTENTIAL_LIST, state))
        external_acc = vmap_function(jnp.array(config.external_accelerations), state_tobe_vmap)
        total_external_acceleration = jnp.sum(external_acc, axis=0)
        return total_external_acceleration


@partial(jax.jit, static_argnames=['config', 'return_potential'])
def NFW(state, config, params, return_potential=False):
    """
    Compute acceleration of all particles due to a NFW profile.

    Parameters
    ----------
    state : jnp.ndarray
        Array of shape (N_particles, 6) representing the positions and velocities of the particles. 
    config: NamedTuple
        Configuration parameters.
    params: NamedTuple
        Simulation parameters.
    return_potential: bool
        If True, also returns the potential energy of the NFW profile.
    
    Returns
    -------
    Tuple
        - Acceleration: jnp.ndarray 
            Acecleration of all particles due to NFW external potential
        - Potential: jnp.ndarray
            Potential energy of all particles due to NFW external potential
            Returned only if return_potential is True.   
    """
    
    params_NFW = params.NFW_params
    
    r  = jnp.linalg.norm(state[:, 0], axis=1)

    NUM = (params_NFW.r_s+r)*jnp.log(1+r/params_NFW.r_s) - r
    DEN = r*r*r*(params_NFW.r_s+r)*params_NFW.d_c

    acc =  - params.G * params_NFW.Mvir*NUM[:, jnp.newaxis]/DEN[:, jnp.newaxis] * state[:, 0]
    pot = - params.G * params_NFW.Mvir*jnp.log(1+r/params_NFW.r_s)/(r*params_NFW.d_c)

    if return_potential:
        return acc, pot
    else:
        return acc
    

@partial(jax.jit, static_argnames=['config', 'return_potential'])
def point_mass(state, config, params, return_potential=False):
    """
    Compute acceleration of all particles due to a point mass.

    Parameters
    ----------
    state : jnp.ndarray
        Array of shape (N_particles, 6) representing the positions and velocities of the particles. 
    config: NamedTuple
        Configuration parameters.
    params: NamedTuple
        Simulation parameters.
    return_potential: bool
        If True, also returns the potential energy of the point mass.
    
    Returns
    -------
    Tuple
        - Acceleration: jnp.ndarray 
            Acecleration of all particles due to point mass external potential
        - Potential: jnp.ndarray
            Potential energy of all particles due to point mass external potential
            Returned only if return_potential is True.   
    """
    params_point_mass = params.PointMass_params
    
    r  = jnp.linalg.norm(state[:, 0], axis=1)
    
    acc = - params.G * params_point_mass.M * state[:, 0] / (r**3)[:, None]
    pot = - params.G * params_point_mass.M / r
    
    if return_potential:
        return acc, pot
    else:
        return acc
    

@partial(jax.jit, static_argnames=['config', 'return_potential'])
def MyamotoNagai(state, config, params, return_potential=False):
    """
    Compute acceleration of all particles due to a Miyamoto-Nagai profile.

    Parameters
    ----------
    state : jnp.ndarray
        Array of shape (N_particles, 6) representing the positions and velocities of the particles. 
    config: NamedTuple
        Configuration parameters.
    params: NamedTuple
        Simulation parameters.
    return_potential: bool
        If True, also returns the potential energy of the Miyamoto-Nagai profile.
    
    Returns
    -------
    Tuple
        - Acceleration: jnp.ndarray 
            Acecleration of all particles due to Miyamoto-Nagai external potential
        - Potential: jnp.ndarray
            Potential energy of all particles due to Miyamoto-Nagai external potential
            Returned only if return_potential is True.   
    """
    params_MN = params.MN_params
    
    z2 = state[:, 0, 2]**2
    b = params_MN.b
    a = params_MN.a

    Dz = (a+(z2+b**2)**0.5)
    D = jnp.sum(state[:, 0, :2]**2, axis=1) + Dz**2
    K = params.G * params_MN.M / D**(3/2)
    ax = -K * state[:, 0, 0]
    ay = -K * state[:, 0, 1]
    az = -K * state[:, 0, 2] * Dz / (z2 + b**2)**0.5
    acc = jnp.stack([ax, ay, az], axis=1)

    pot = - params.G * params_MN.M / jnp.sqrt(D)
    
    if return_potential:
        return acc, pot
    else:
        return acc
# ===== jdgsim/integrators.py =====
from typing import Optional, Tuple, Callable, Union, List
from functools import partial

import jax
import jax.numpy as jnp
from jax import vmap, jit
from jax import random
# from jdgsim.potentials import combined_external_acceleration, combined_external_acceleration_vmpa_switch  # scaffolding: the package modules are flattened into this file
# from jdgsim.dynamics import DIRECT_ACC, direct_acc, DIRECT_ACC_LAXMAP, direct_acc_laxmap  # scaffolding: the package modules are flattened into this file
LEAPFROG = 0

@partial(jax.jit, static_argnames=['dt', 'config'])
def leapfrog(state, mass, dt, config, params):
    """
    Simple implementation of a symplectic Leapfrog (Verlet) integrator for N-body simulations.

    Parameters
    ----------
    state : jax.numpy.ndarray
        The state of the particles, where the first column represents positions and the second column represents velocities.
    mass : jax.numpy.ndarray
        The mass of the particles.
    dt : float
        Time-step for current integration.
    config : object
        Configuration object containing the acceleration scheme and external accelerations.
    params : dict
        Additional parameters for the acceleration functions.

    Returns
    -------
    jax.numpy.ndarray
        The updated state of the particles.
    """
    if config.acceleration_scheme == DIRECT_ACC:
        acc_func = direct_acc
    
    elif config.acceleration_scheme == DIRECT_ACC_LAXMAP:
        acc_func = direct_acc_laxmap
    
    acc = acc_func(state, mass, config, params)

    # Check additional accelerations
    if len(config.external_accelerations) > 0:
        acc = acc + combined_external_acceleration_vmpa_switch(state, config, params)
            
    # removing half-step velocity
    state = state.at[:, 0].set(state[:, 0] + state[:, 1]*dt + 0.5*acc*(dt**2))

    acc2 = acc_func(state, mass, config, params)

    if len(config.external_accelerations) > 0:
        acc2 = acc2 + combined_external_acceleration_vmpa_switch(state, config, params)
         
    state = state.at[:, 1].set(state[:, 1] + 0.5*(acc + acc2)*dt)
    
    return state





# ===== jdgsim/utils.py =====
from functools import partial
import jax
from jax import jit
import jax.numpy as jnp
# from jdgsim.dynamics import DIRECT_ACC, direct_acc, DIRECT_ACC_LAXMAP, direct_acc_laxmap  # scaffolding: the package modules are flattened into this file
# from jdgsim.potentials import combined_external_acceleration, combined_external_acceleration_vmpa_switch  # scaffolding: the package modules are flattened into this file

    
@jit
def center_of_mass(state, mass):
    """
    Return the center of mass of the system.

    Parameters
    ----------
    state : jnp.ndarray
        Array of shape (N_particles, 6) representing the positions and velocities of the particles.
    mass : jnp.ndarray

    Returns
    -------
    jnp.ndarray
        The center of mass of the system.
    """
    
    return jnp.sum(state[:, 0] * mass[:, jnp.newaxis], axis=0) / jnp.sum(mass)

@jit
def E_kin(state, mass):
    """
    Return the kinetic energy of the system.

    Parameters
    ----------
    state : jnp.ndarray
        Array of shape (N_particles, 6) representing the positions and velocities of the particles.
    mass : jnp.ndarray
        Array of shape (N_particles,) representing the masses of the particles.

    Returns
    -------
    float
        The kinetic energy of the system.

    """
    
    return 0.5 * jnp.sum(jnp.sum(state[:, 1]**2, axis=1) * mass)

@partial(jax.jit, static_argnames=['config'])
def E_pot(state, mass, config, params):
    """
    Return the potential energy of the system.

    Parameters
    ----------
    state : jnp.ndarray
        Array of shape (N_particles, 6) representing the positions and velocities of the particles.
    mass : jnp.ndarray
        Array of shape (N_particles,) representing the masses of the particles.

    Returns
    -------
    float
        The potential energy of the system.
    """
    
    # return - jnp.sum(jnp.sum(config.acceleration_scheme(state, mass, config, params) * state[:, 0], axis=1) * mass)
    if config.acceleration_scheme == DIRECT_ACC:
        _, pot = direct_acc(state, mass, config, params, return_potential=True)
        self_Epot = jnp.sum(pot*mass)
    elif config.acceleration_scheme == DIRECT_ACC_LAXMAP:
        _, pot = direct_acc_laxmap(state, mass, config, params, return_potential=True)
        self_Epot = jnp.sum(pot*mass)
    
    external_Epot = 0.
    if len(config.external_accelerations) > 0:
        _, pot = combined_external_acceleration_vmpa_switch(state, config, params, return_potential=True)
        external_Epot = jnp.sum(pot*mass)
        
    return self_Epot + external_Epot

@partial(jax.jit, static_argnames=['config'])
def E_tot(state, mass, config, params):
    """
    Return the total energy of the system.

    Parameters
    ----------
    state : jnp.ndarray
        Array of shape (N_particles, 6) representing the positions and velocities of the particles.
    mass : jnp.ndarray
        Array of shape (N_particles,) representing the masses of the particles.

    Returns
    -------
    float
        The total energy of the system.
    """
    
    return E_kin(state, mass) + E_pot(state, mass, config, params)

def Angular_momentum(state, mass):
    """
    Return the angular momentum of the system.

    Parameters
    ----------
    state : jnp.ndarray
        Array of shape (N_particles, 6) representing the positions and velocities of the particles.
    mass : jnp.ndarray
        Array of shape (N_particles,) representing the masses of the particles.

    Returns
    -------
    jnp.ndarray
        The angular momentum of the system.
    """
    
    return jnp.sum(jnp.cross(state[:, 0], state[:, 1]) * mass[:, jnp.newaxis], axis=0)

# ===== jdgsim/option_classes.py =====
from typing import NamedTuple
# from jdgsim.integrators import LEAPFROG  # scaffolding: the package modules are flattened into this file
# from jdgsim.dynamics import DIRECT_ACC, DIRECT_ACC_LAXMAP  # scaffolding: the package modules are flattened into this file
# from jdgsim.potentials import NFW_POTENTIAL, POINT_MASS, MN_POTENTIAL  # scaffolding: the package modules are flattened into this file
# from astropy import units as u  # scaffolding: not installed here; units replaced by code-unit numbers below
# from astropy import constants as c  # scaffolding: not installed here; units replaced by code-unit numbers below
from math import log


class PlummerParams(NamedTuple):
    """
    NamedTuple containing the parameters for the Plummer profile
    """
    
    a: float = 7 #kpc
    
    Mtot: float = 1.0 #M☉

class NFWParams(NamedTuple):
    """
    NamedTuple containing the parameters for the NFW profile
    """
    
    Mvir: float = 1.62*1e11 #M☉
    
    r_s: float = 15.3 #kpc
    
    c: float = 10

    d_c: float = log(1+c) - c/(1+c)

class PointMassParams(NamedTuple):
    """
    NamedTuple containing the parameters for the point mass
    """

    M: float = 1.0 #M☉
    
class MNParams(NamedTuple):
    """
    NamedTuple containing the parameters for the Myamoto Nagai profile
    
    """

    M: float = 6.5e10 #M☉

    a: float = 3.0 #kpc

    b: float = 0.28 #kpc


class SimulationParams(NamedTuple):
    """
    NamedTuple containing the parameters for the simulation. This parameter do not require recompilation
    """
    
    G: float = 1.0
    
    t_end: float = 1.0  #In code_units by setting G=1

    Plummer_params: PlummerParams = PlummerParams()

    NFW_params: NFWParams = NFWParams()

    PointMass_params: PointMassParams = PointMassParams()

    MN_params: MNParams = MNParams()
    
class SimulationConfig(NamedTuple):
    """
    NamedTuple containing the configuration for the simulation. This parameter require recompilation
    """
    
    N_particles: int = 1000
    
    dimensions: int = 3
    
    return_snapshots: bool = False
    
    num_snapshots: int = 10
    
    fixed_timestep: bool = True
    
    num_timesteps: int = 1000
    
    softening: float = 1e-10
    
    integrator: int = LEAPFROG
    
    acceleration_scheme: int = DIRECT_ACC

    batch_size: int = 10_000

    double_map: bool = False

    external_accelerations: tuple = ()

    
# ===== jdgsim/initial_condition.py =====
from functools import partial

import jax
import jax.numpy as jnp
from jax import vmap, random
import numpy as np
from multiprocessing import Pool


def Plummer_sphere(key, config, params):
    """
    Create initial conditions for a Plummer sphere. The sampling of velocities is done by inverse fitting 
    the cumulative distribution function of the Plummer sphere.

    Parameters
    ----------
    key : jax.random.PRNGKey
        Random key.
    config : NamedTuple
        Configuration NamedTuple containing the number of particles (N_particles).
    params : NamedTuple
        Parameters NamedTuple containing:
        - Plummer_a : float
            Scale length of the Plummer sphere.
        - G : float
            Gravitational constant.
    Returns
    -------
    tuple
        A tuple containing:
        - positions : jnp.array
            Array of shape (N_particles, 3) representing the positions of the particles.
        - velocities : jnp.array
            Array of shape (N_particles, 3) representing the velocities of the particles.
        - masses : jnp.array
            Array of shape (N_particles,) representing the masses of the particles.
    """
    
    Plummer_Mtot = params.Plummer_params.Mtot
    key_r, key_phi, key_sin_i, key_u, key_phi_v, key_sin_i_v= random.split(key, 6)
    r = jnp.sqrt( params.Plummer_params.a / (random.uniform(key=key_r, shape=(config.N_particles,))**(-3/2) -1))
    phi = random.uniform(key=key_phi, shape=(config.N_particles,), minval=0, maxval=2*jnp.pi) 
    sin_i = random.uniform(key=key_sin_i, shape=(config.N_particles,), minval=-1, maxval=1)
    
    positions = jnp.array([r*jnp.cos(jnp.arcsin(sin_i))*jnp.cos(phi), r*jnp.cos(jnp.arcsin(sin_i))*jnp.sin(phi), r*sin_i]).T
    potential = - params.G * Plummer_Mtot / jnp.sqrt( jnp.linalg.norm(positions, axis=1)**2 + params.Plummer_params.a**2)
    velocities_escape = jnp.sqrt(-2*potential)


    def G(q):
        """
        Normalize Cumulative distribution function of q=v/v_escape for a Plummer sphere.
        The assosiate unormalized probability distribution function assosiated with it is
        g(q) = (1-q)**(7/2) * q**2

        Parameters
        ----------
        q : float
            Velocity ratio v/v_escape.
        """
        return 1287/16 * ((-2*(1-q)**(9/2))*(99*q**2+36*q+8)/1287 +16/1287)
    
    # Invere fitting
    q = jnp.linspace(0, 1, 100_000)
    y = G(q)

    u = random.uniform(key=key_u, shape=(config.N_particles,))
    samples = jnp.interp(u, y, q)
    velocities_modulus = samples * velocities_escape

    # Generate random angles for the velocity
    phi_v = random.uniform(key=key_phi_v, shape=(config.N_particles,), minval=0, maxval=2*jnp.pi) 
    sin_i_v = random.uniform(key=key_sin_i_v, shape=(config.N_particles,), minval=-1, maxval=1)
    velocities = jnp.array([velocities_modulus*jnp.cos(jnp.arcsin(sin_i_v))*jnp.cos(phi_v), velocities_modulus*jnp.cos(jnp.arcsin(sin_i_v))*jnp.sin(phi_v), velocities_modulus*sin_i_v]).T


    return jnp.array(positions), jnp.array(velocities), 1/config.N_particles*jnp.ones(config.N_particles)
     
 
  
def Plummer_sphere_multiprocess(mass, config, params):
    """
    Parameters
    ----------
    mass : float
        The total mass of the Plummer sphere.
    config : NamedTuple
        Configuration NamedTuple containing the number of particles (N_particles).
    params : NamedTuple
        Parameters NamedTuple containing:
        - Plummer_a : float
            Scale length of the Plummer sphere.
        - G : float
            Gravitational constant.
    Returns
    -------
    tuple
        A tuple containing:
        - positions : jnp.array
            Array of shape (N_particles, 3) representing the positions of the particles.
        - velocities : jnp.array
            Array of shape (N_particles, 3) representing the velocities of the particles.
        - masses : jnp.array
            Array of shape (N_particles,) representing the masses of the particles.
    """
    Plummer_Mtot = params.Plummer_params.Mtot
    r = np.sqrt( params.Plummer_params.a / (np.random.uniform(size=config.N_particles)**(-3/2) -1))
    phi = np.random.uniform(size=config.N_particles, low=0, high=2*np.pi) 
    sin_i = np.random.uniform(size=config.N_particles, low=-1, high=1)
    
    positions = np.array([r*np.cos(np.arcsin(sin_i))*np.cos(phi), r*np.cos(np.arcsin(sin_i))*np.sin(phi), r*sin_i]).T
    potential = - params.G * Plummer_Mtot / np.sqrt( np.linalg.norm(positions, axis=1)**2 + params.Plummer_params.a**2)

    def generate_velocity_Plummer(potential_i, rejection_samples=1000):
            velocity_i = np.random.uniform(size=(rejection_samples, 3), low=-np.sqrt(-2*potential_i), high=np.sqrt(-2*potential_i))
            escape_velocity_mask = np.sum(velocity_i**2, axis=1) <= - 2*potential_i
            isotropic_velocity_mask = np.random.uniform(size=rejection_samples) <= ((0.5 * np.sum(velocity_i**2, axis=1) + potential_i ) / potential_i)**(7/2)
            return velocity_i[(escape_velocity_mask)&(isotropic_velocity_mask)][0]
    
    with Pool(processes=1) as pool:
        velocities = pool.map(generate_velocity_Plummer, potential)
    return jnp.array(positions), jnp.array(velocities), 1/config.N_particles*jnp.ones(config.N_particles)

def ic_two_body(mass1: float, mass2: float, rp: float, e: float, config, params):
    """
    Create initial conditions for a two-body system.
    
    By default, the two bodies will be placed along the x-axis at the
    closest distance rp. Depending on the input eccentricity, the two 
    bodies can be in a circular (e < 1), parabolic (e = 1), or hyperbolic 
    orbit (e > 1).

    Parameters
    ----------
    mass1 : float
        Mass of the first body [nbody units].
    mass2 : float
        Mass of the second body [nbody units].
    rp : float
        Closest orbital distance [nbody units].
    e : float
        Eccentricity.
    config : NamedTuple
        Configuration NamedTuple.
    params : NamedTuple
        Parameters NamedTuple.

    Returns
    -------
    pos : jnp.ndarray
        Positions of the particles.
    vel : jnp.ndarray
        Velocities of the particles.
    mass : jnp.ndarray
        Masses of the particles.
    """

    Mtot=mass1+mass2

    if e==1.:
        vrel=jnp.sqrt(params.G * 2*Mtot/rp)
    else:
        a=rp/(1-e)
        vrel=jnp.sqrt(params.G * Mtot*(2./rp-1./a))

    v1 = -params.G*mass2/Mtot * vrel
    v2 = params.G*mass1/Mtot * vrel

    pos  = jnp.array([[0.,0.,0.],[rp,0.,0.]])
    vel  = jnp.array([[0.,v1,0.],[0.,v2,0.]])
    mass = jnp.array([mass1, mass2])

    return pos, vel, mass
    


def sample_position_on_sphere(key, r_p, num_samples=1):
    """
    Sample uniform positions on a sphere of radius r_p.

    Parameters
    ----------
    key : jax.random.PRNGKey
        JAX random key for sampling.
    r_p : float
        Radius of the sphere.
    num_samples : int
        Number of samples to generate.

    Returns
    -------
    positions : jnp.ndarray
        Sampled positions (num_samples, 3).
    """
    subkey1, subkey2 = random.split(key)
    
    # Sample phi uniformly in [0, 2π]
    phi = random.uniform(subkey1, shape=(num_samples,), minval=0, maxval=2*jnp.pi)
    
    # Sample cos(theta) uniformly in [-1, 1] to ensure uniform distribution on the sphere
    costheta = random.uniform(subkey2, shape=(num_samples,), minval=-1, maxval=1)
    theta = jnp.arccos(costheta)  # Convert to theta
    
    # Convert to Cartesian coordinates
    x = r_p * jnp.sin(theta) * jnp.cos(phi)
    y = r_p * jnp.sin(theta) * jnp.sin(phi)
    z = r_p * jnp.cos(theta)

    return jnp.stack([x, y, z], axis=-1)

def inclined_circular_velocity(position, v_c, inclination):
    """
    Convert circular velocity from an inclined orbit into Cartesian components.
    
    Parameters
    ----------
    position : jnp.ndarray
        (x, y, z) position of the Plummer sphere.
    v_c : float
        Circular velocity (km/s).
    inclination : float
        Inclination angle in radians.
    
    Returns
    -------
    velocity : jnp.ndarray
        (v_x, v_y, v_z) velocity components.
    """
    x, y, z = position.T
    phi = jnp.arctan2(y, x)  # Azimuthal angle
    
    # Compute velocity components with inclination
    v_x = -v_c * jnp.cos(inclination) * jnp.sin(phi)
    v_y = v_c * jnp.cos(inclination) * jnp.cos(phi)
    v_z = v_c * jnp.sin(inclination)
    return jnp.stack([v_x, v_y, v_z], axis=-1)
# ===== jdgsim/time_integration.py =====
from timeit import default_timer as timer
from functools import partial
from typing import Union, NamedTuple

import jax
from jax import jit
import jax.numpy as jnp
from jaxtyping import Array, Float, jaxtyped

# from jdgsim.integrators import leapfrog  # scaffolding: the package modules are flattened into this file
# from jdgsim.option_classes import SimulationConfig, SimulationParams  # scaffolding: the package modules are flattened into this file
# from jdgsim.integrators import LEAPFROG, leapfrog  # scaffolding: the package modules are flattened into this file
# from jdgsim.utils import E_tot, Angular_momentum  # scaffolding: the package modules are flattened into this file

class SnapshotData(NamedTuple):
    """Return format for the time integration, when snapshots are requested."""

    #: The times at which the snapshots were taken.
    times: jnp.ndarray = None

    #: The primitive states at the times the snapshots were taken.
    states: jnp.ndarray = None

    #: The total energy at the times the snapshots were taken.
    total_energy: jnp.ndarray = None
    
    #: The angular momentum at the times the snapshots were taken.
    angular_momentum: jnp.ndarray = None

    # The runtime of the simulation-loop.
    runtime: float = 0.0

    #: Number of timesteps taken.
    num_iterations: int = 0

    #: The current checkpoint, used internally.
    current_checkpoint: int = 0



@partial(jax.jit, static_argnames=['config',])
def time_integration(primitive_state, mass, config: SimulationConfig, params: SimulationParams, ):
    """
    Integrate the Nbody simulation in time. For the options of
    the time integration see the simulation configuration and
    the simulation parameters.

    Parameters
    ----------
    primitive_state : jnp.ndarray
        The primitive state array.
    mass : jnp.ndarray
        The mass array.
    config : SimulationConfig
        The simulation configuration.
    params : SimulationParams
        The simulation parameters.

    Returns
    -------
    jnp.ndarray or SnapshotData
        Depending on the configuration (return_snapshots, num_snapshots) either the final state of the fluid
        after the time integration or snapshots of the time evolution.
    """

    if config.fixed_timestep:
        if config.return_snapshots:
            return _time_integration_fixed_steps_snapshot(primitive_state, mass, config, params)
        else:
            return _time_integration_fixed_steps(primitive_state, mass, config, params)
    
    else:
        raise NotImplementedError("Adaptive time stepping not implemented yet")

@partial(jax.jit, static_argnames=['config'])
def _time_integration_fixed_steps(primitive_state, mass, config: SimulationConfig, params: SimulationParams, ):
    """ Fixed time stepping integration of the fluid equations.

    Args:
        primitive_state: The primitive state array.
        config: The simulation configuration.
        params: The simulation parameters.
        helper_data: The helper data.

    Returns:
        Depending on the configuration (return_snapshots, num_snapshots) either the final state of the fluid
        after the time integration of snapshots of the time evolution
    """

    dt = params.t_end / config.num_timesteps
    
    def update_step(_, state):
        
        if config.integrator == LEAPFROG:
            return leapfrog(state, mass, dt, config, params)
            

    # use lax fori_loop to unroll the loop
    state = jax.lax.fori_loop(0, config.num_timesteps, update_step, primitive_state)

    return state  


@partial(jax.jit, static_argnames=['config'])
def _time_integration_fixed_steps_snapshot(primitive_state, mass, config: SimulationConfig, params: SimulationParams, ):
    
    if config.return_snapshots:
        times = jnp.zeros(config.num_snapshots)
        states = jnp.zeros((config.num_snapshots, primitive_state.shape[0], primitive_state.shape[1], primitive_state.shape[2]))
        total_energy = jnp.zeros(config.num_snapshots)
        angular_momentum = jnp.zeros((config.num_snapshots, 3))
        current_checkpoint = 0
        snapshot_data = SnapshotData(times = times, 
                                     states = states, 
                                     total_energy = total_energy, 
                                     angular_momentum = angular_momentum,
                                     current_checkpoint = current_checkpoint)

    def update_step(carry):

        if config.return_snapshots:
            time, state, snapshot_data = carry

            def update_snapshot_data(snapshot_data):
                times = snapshot_data.times.at[snapshot_data.current_checkpoint].set(time)
                states = snapshot_data.states.at[snapshot_data.current_checkpoint].set(state)
                total_energy = snapshot_data.total_energy.at[snapshot_data.current_checkpoint].set(E_tot(state, mass, config, params))
                angular_momentum = snapshot_data.angular_momentum.at[snapshot_data.current_checkpoint].set(Angular_momentum(state, mass))
                current_checkpoint = snapshot_data.current_checkpoint + 1
                snapshot_data = snapshot_data._replace(times = times, 
                                                       states = states, 
                                                       total_energy = total_energy, 
                                                       angular_momentum = angular_momentum,
                                                       current_checkpoint = current_checkpoint)
                return snapshot_data
            
            def dont_update_snapshot_data(snapshot_data):
                return snapshot_data

            snapshot_data = jax.lax.cond(time >= snapshot_data.current_checkpoint * params.t_end / config.num_snapshots, update_snapshot_data, dont_update_snapshot_data, snapshot_data)

            num_iterations = snapshot_data.num_iterations + 1
            snapshot_data = snapshot_data._replace(num_iterations = num_iterations)

        else:
            time, state = carry

        dt = params.t_end / config.num_timesteps
        
        if config.integrator == LEAPFROG:
            state = leapfrog(state, mass, dt, config, params)

        time += dt

        if config.return_snapshots:
            carry = (time, state, snapshot_data)
        else:
            carry = (time, state)

        return carry
    
    def condition(carry):
        if config.return_snapshots:
            t, _, _ = carry
        else:
            t, _ = carry
        return t < params.t_end
    
    if config.return_snapshots:
        carry = (0.0, primitive_state, snapshot_data)
    else:
        carry = (0.0, primitive_state)
    
    start = timer()
    carry = jax.lax.while_loop(condition, update_step, carry)
    end = timer()
    duration = end - start

    if config.return_snapshots:
        _, state, snapshot_data = carry
        snapshot_data = snapshot_data._replace(runtime = duration)
        return snapshot_data
    else:
        _, state = carry
        return state
# ===== notebooks/2body.ipynb =====
# cell 0
import os
# os.environ["CUDA_VISIBLE_DEVICES"] = "0"  # Use only the first GPU
from typing import Optional, Tuple, Callable, Union, List
from functools import partial

# import matplotlib.pyplot as plt  # scaffolding: not installed here; units replaced by code-unit numbers below
import jax
import jax.numpy as jnp
from jax import vmap, jit
from jax import random
jax.config.update("jax_enable_x64", True)

import numpy as np
# from astropy import units as u  # scaffolding: not installed here; units replaced by code-unit numbers below
# from astropy import constants as c  # scaffolding: not installed here; units replaced by code-unit numbers below

# import jdgsim  # scaffolding: the package modules are flattened into this file
# from jdgsim import construct_initial_state  # scaffolding: the package modules are flattened into this file
# from jdgsim.integrators import leapfrog  # scaffolding: the package modules are flattened into this file
# from jdgsim.dynamics import direct_acc  # scaffolding: the package modules are flattened into this file
# from jdgsim.option_classes import SimulationConfig, SimulationParams, NFWParams  # scaffolding: the package modules are flattened into this file
# from jdgsim.initial_condition import Plummer_sphere, ic_two_body  # scaffolding: the package modules are flattened into this file
# from jdgsim.utils import center_of_mass  # scaffolding: the package modules are flattened into this file
# from jdgsim.time_integration import time_integration  # scaffolding: the package modules are flattened into this file
# from jdgsim.units import CodeUnits  # scaffolding: the package modules are flattened into this file

# cell 2 (CodeUnits from astropy; scaffolding: code units kpc, Msun, G=1 give a code time of about 471.5 Gyr)
code_time_in_Gyr = 471.5  # scaffolding

# cell 3
# Define the 
config = SimulationConfig(N_particles=2, 
                          return_snapshots=True, 
                          num_snapshots=100,
                          num_timesteps=1000, 
                          external_accelerations=(), softening=1e-10) #default values

params = SimulationParams(t_end = 1 / code_time_in_Gyr,  # scaffolding: was (1*u.Gyr).to(code_units.code_time).value
                         
                          G=1) #default values

print(config)
print(params)

mass1 = 100.0  # scaffolding: was (100*u.Msun).to(code_units.code_mass).value
mass2 = 1.0  # scaffolding: was (1*u.Msun).to(code_units.code_mass).value
rp = 0.01  # scaffolding: was (0.01*u.kpc).to(code_units.code_length).value
pos, vel, mass = ic_two_body(mass1, 
                             mass2, 
                             rp=rp, 
                             e=0., 
                             config=config, 
                             params=params)
mass = jnp.array([mass1, mass2])
initial_state = construct_initial_state(pos, vel)

try:  # scaffolding
    snapshots= time_integration(initial_state, mass, config, params)
    _report({"jit(time_integration)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
