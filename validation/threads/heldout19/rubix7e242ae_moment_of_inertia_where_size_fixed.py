# source: https://github.com/AstroAI-Lab/rubix/commit/7e242ae8bdf324de83864ea47f643df6d02673ef
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The commit gathers the particles with jnp.where(mask, size=N), a static size, so the jitted function compiles once for the 3 radii.
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

import jax  # scaffolding
import jax.numpy as jnp


def moment_of_inertia_tensor(positions, masses, halfmass_radius):
    """Calculate the moment of inertia tensor for a given set of positions and masses within the half-light radius.
       Assumes the galaxy is already centered.

    Parameters
    ----------
    positions : jnp.ndarray
        The positions of the particles.
    masses : jnp.ndarray
        The masses of the particles.
    half_light_radius : float
        The half-light radius of the galaxy.

    Returns
    -------
    jnp.ndarray
        The moment of inertia tensor.
    """

    distances = jnp.sqrt(
        jnp.sum(positions**2, axis=1)
    )  # Direct calculation since positions are already centered

    within_halfmass_radius = distances <= halfmass_radius

    # Ensure within_halfmass_radius is concrete
    concrete_indices = jnp.where(
        within_halfmass_radius, size=within_halfmass_radius.shape[0]
    )[0]

    filtered_positions = positions[concrete_indices]
    filtered_masses = masses[concrete_indices]

    I = jnp.zeros((3, 3))
    for i in range(3):
        for j in range(3):
            if i == j:
                I = I.at[i, j].set(
                    jnp.sum(
                        filtered_masses * jnp.sum(filtered_positions**2, axis=1)
                        - filtered_masses * filtered_positions[:, i] ** 2
                    )
                )
            else:
                I = I.at[i, j].set(
                    -jnp.sum(
                        filtered_masses
                        * filtered_positions[:, i]
                        * filtered_positions[:, j]
                    )
                )
    return I


positions = jax.random.normal(jax.random.PRNGKey(0), (500, 3))  # scaffolding: a centred particle set
masses = jnp.ones(500)  # scaffolding
rotate_inputs = jax.jit(moment_of_inertia_tensor)  # scaffolding: the rubix pipeline jits the galaxy-rotation step that calls it
try:  # scaffolding
    for r in (0.5, 1.0, 2.0):  # scaffolding
        I = rotate_inputs(positions, masses, r)
    _report({"jit(moment_of_inertia_tensor)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
