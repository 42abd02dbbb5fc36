# source: https://github.com/Autodesk/XLB/commit/c87b3a5d0a9bb7713676968284744987f72b5fc8
# expect: none
# runtime: COMPILES 1 CALLS 6
# why: The example's run loop passes the Python loop counter i (and omega) to the static-self jitted stepper on every step; both are traced scalars of an unchanged type, so six steps compile once.

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
from functools import partial

import jax.numpy as jnp
import numpy as np
from jax import jit

# scaffolding: D2Q9 lattice velocities and weights (xlb.velocity_set.D2Q9)
C = np.array([[0, 0], [1, 0], [0, 1], [-1, 0], [0, -1], [1, 1], [-1, 1], [-1, -1], [1, -1]])
W = jnp.array([4 / 9] + [1 / 9] * 4 + [1 / 36] * 4)


class IncompressibleNavierStokesStepper:  # (xlb/operator/stepper/nse_stepper.py at c87b3a5, boundary conditions and precision policy trimmed)
    def stream(self, f):  # scaffolding: periodic streaming
        return jnp.stack([jnp.roll(f[q], shift=(int(C[q, 0]), int(C[q, 1])), axis=(0, 1)) for q in range(9)])

    def macroscopic(self, f):  # scaffolding
        rho = jnp.sum(f, axis=0, keepdims=True)
        u = jnp.tensordot(jnp.asarray(C.T, f.dtype), f, axes=1) / rho
        return rho, u

    def equilibrium(self, rho, u):  # scaffolding: quadratic equilibrium
        cu = jnp.tensordot(jnp.asarray(C, u.dtype), u, axes=1)
        usq = jnp.sum(u * u, axis=0, keepdims=True)
        return rho * W[:, None, None] * (1 + 3 * cu + 4.5 * cu**2 - 1.5 * usq)

    def collision(self, f, feq, rho, u, omega):  # (BGK.jax_implementation at c87b3a5)
        fneq = f - feq
        fout = f - jnp.float32(omega) * fneq
        return fout

    def __call__(self, *args):  # scaffolding: Operator.__call__ dispatch
        return self.jax_implementation(*args)

    @partial(jit, static_argnums=(0,))
    def jax_implementation(self, f_0, f_1, bc_mask, missing_mask, omega, timestep):
        """
        Perform a single step of the lattice boltzmann method
        """
        # Apply streaming
        f_post_stream = self.stream(f_0)

        # Compute the macroscopic variables
        rho, u = self.macroscopic(f_post_stream)

        # Compute equilibrium
        feq = self.equilibrium(rho, u)

        # Apply collision
        f_post_collision = self.collision(f_post_stream, feq, rho, u, omega)

        # Copy back to store precision
        f_1 = f_post_collision

        return f_0, f_1


class LidDrivenCavity2D:  # (examples/cfd/lid_driven_cavity_2d.py at c87b3a5, grid/BC setup and output trimmed)
    def __init__(self, omega, grid_shape):
        self.omega = omega
        self.f_0 = jnp.broadcast_to(W[:, None, None], (9,) + grid_shape)  # scaffolding
        self.f_1 = jnp.zeros_like(self.f_0)  # scaffolding
        self.bc_mask = jnp.zeros((1,) + grid_shape, dtype=jnp.uint8)  # scaffolding
        self.missing_mask = jnp.zeros((9,) + grid_shape, dtype=bool)  # scaffolding
        self.stepper = IncompressibleNavierStokesStepper()

    def run(self, num_steps, post_process_interval=100):
        for i in range(num_steps):
            self.f_0, self.f_1 = self.stepper(self.f_0, self.f_1, self.bc_mask, self.missing_mask, self.omega, i)
            self.f_0, self.f_1 = self.f_1, self.f_0

            if i % post_process_interval == 0 or i == num_steps - 1:
                self.post_process(i)

    def post_process(self, i):
        pass  # (vtk/image output trimmed)


simulation = LidDrivenCavity2D(omega=1.6, grid_shape=(32, 32))  # scaffolding
simulation.run(num_steps=6, post_process_interval=2)  # scaffolding: cut down from 50000 steps
_report({"jit(jax_implementation)"}, 6)
