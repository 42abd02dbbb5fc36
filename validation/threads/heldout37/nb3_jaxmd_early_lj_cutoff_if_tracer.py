# source: https://github.com/comecattin/JAX-MD/blob/38ab73430f0c1425bf94df69f34c4cc017bdfdda/src/dynamics.py
# expect: trace-time-error at line 61
# runtime: ERROR TracerBoolConversionError
# why: The jitted velocity-Verlet step calls compute_forces, whose Python `if dist < cutoff:` branches on a traced distance, so tracing step raises TracerBoolConversionError.

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
import jax
import jax.numpy as jnp

@jax.jit
def step(
        xyz,
        velocities,
        dt,
        masses,
        cutoff,
        epsilon
    ):
    """Perform a single step of molecular dynamics."""
    dt2 = 0.5 * dt
    dt2m = jnp.asarray(dt2 / masses[:, None], dtype=jnp.float32)
    forces = compute_forces(xyz, cutoff, epsilon)
    velocities = velocities + forces * dt2m
    xyz = xyz + velocities * dt
    forces = compute_forces(xyz, cutoff, epsilon)
    velocities = velocities + forces * dt2m
    return xyz, velocities


def compute_forces(xyz, cutoff, epsilon):
    """Compute the forces using the Lennard-Jones potential."""
    forces = jnp.zeros_like(xyz)

    # Compute forces between neighboring atoms
    for i in range(len(xyz)):
        for j in range(i+1, len(xyz)):
            dist = jnp.linalg.norm(xyz[i] - xyz[j])
            if dist < cutoff:
                force = (
                    24 * epsilon * (
                        2 * (cutoff / dist)**12 - (cutoff / dist)**6
                        ) / dist
                    )

                forces = forces.at[i].add(-force)
                forces = forces.at[j].add(force)

    return forces


if __name__ == "__main__":
    xyz_input = jnp.array(
        [
            [0., 0., 0.],
            [1., 0., 0.],
            [0., 1., 0.]
        ],
        dtype=jnp.float32
    )

    velocities_input = jnp.array(
        [
            [0., 0., 0.],
            [0., 0., 0.],
            [0., 0., 0.]
        ],
        dtype=jnp.float32
    )

    atomic_masses = jnp.array([16, 1, 1])
    epsilon = 1e-5
    cutoff = 3.0
    dt = 0.1
    try:  # scaffolding: the script stops after setting the inputs; one MD step is taken here
        xyz, velocities = step(xyz_input, velocities_input, dt, atomic_masses, cutoff, epsilon)
        _report({"jit(step)"}, 1)
    except Exception as e:  # scaffolding
        print("ERROR", type(e).__name__)  # scaffolding
