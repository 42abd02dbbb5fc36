# source: https://github.com/uwplasma/PyPIC3D/commit/27e41027f291732f054e6c751d7e07c6c672ff12
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The fix uses static_argnames for the four names, so the loop decorates, and the functions/strings are hashable static values: one compile for three steps.

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
import sys

sys.excepthook = lambda etype, value, tb: print(f"ERROR {etype.__name__}")  # scaffolding: report an uncaught error as the last line

import jax.numpy as jnp
import jax
from jax import jit
from functools import partial


def particle_push(particle, E, B, E_grid, B_grid, dt, constants):  # scaffolding: stand-in for PyPIC3D.boris.particle_push
    q_m = constants["q_m"]
    v = particle["v"] + dt * q_m * (E[0].mean() + jnp.cross(particle["v"], jnp.array([B[0].mean(), B[1].mean(), B[2].mean()])))
    return {"x": particle["x"], "v": v}


def calculateE(world, particles, constants, rho, phi, solver, bc):  # scaffolding: stand-in for PyPIC3D.fields.calculateE
    rho = rho + sum(p["x"].sum() for p in particles) * 0.0
    phi = jnp.fft.ifftn(jnp.fft.fftn(rho) / (1.0 + world["dx"] ** 2)).real if solver == "spectral" else rho
    E = tuple(-g for g in jnp.gradient(phi))
    return E, phi, rho


@partial(jit, static_argnames=("curl_func", "J_func", "solver", "bc"))
def time_loop_electrostatic(particles, E, B, J, rho, phi, E_grid, B_grid, world, constants, curl_func, J_func, solver, bc):
    """
    Perform a time loop for an electrostatic simulation.
    """  # (argument docs trimmed)

    ################ PARTICLE PUSH ########################################################################################
    for i in range(len(particles)):

        particles[i] = particle_push(particles[i], E, B, E_grid, B_grid, world['dt'], constants)
        # use boris push for particle velocities

        particles[i]["x"] = particles[i]["x"] + world['dt'] * particles[i]["v"]  # particles[i].update_position()
        # update the particle positions

    ############### SOLVE E FIELD ############################################################################################
    E, phi, rho = calculateE(world, particles, constants, rho, phi, solver, bc)
    # calculate the electric field using the Poisson equation

    return particles, E, B, J, phi, rho


n = 8  # scaffolding: an 8^3 grid and one species
zeros = jnp.zeros((n, n, n))
E, B, J = (zeros, zeros, zeros), (zeros, zeros, zeros), (zeros, zeros, zeros)
rho, phi = zeros, zeros
world = {"dt": 0.01, "dx": 0.1}
constants = {"q_m": -1.0}
particles = [{"x": jnp.ones((16, 3)), "v": jnp.zeros((16, 3))}]
for t in range(3):  # scaffolding
    particles, E, B, J, phi, rho = time_loop_electrostatic(
        particles, E, B, J, rho, phi, None, None, world, constants, jnp.gradient, None, "spectral", "periodic"
    )
_report({"jit(time_loop_electrostatic)"}, 3)
