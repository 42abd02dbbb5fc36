# source: https://github.com/zizai/jax-frc/commit/3857956c0eb1b759aa0d00fa357719403e3d654a
# expect: trace-time-error at line 84
# runtime: ERROR UnexpectedTracerError
# why: ExternalCircuits._coil_params is a cached_property built with jnp.array, so its first use inside one jitted coupling function caches tracers that the next jitted function reads, raising UnexpectedTracerError.
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
from dataclasses import dataclass
from functools import cached_property
from typing import Callable, Optional

import jax
import jax.numpy as jnp
from jax import Array, vmap

MU0 = 4e-7 * jnp.pi  # scaffolding: jax_frc.constants


@dataclass(frozen=True)  # scaffolding: cut-down jax_frc.core.geometry.Geometry
class Geometry:
    nr: int = 16
    nz: int = 32
    r_min: float = 0.01
    r_max: float = 0.5
    z_min: float = -1.0
    z_max: float = 1.0

    @property
    def r_grid(self):
        r = jnp.linspace(self.r_min, self.r_max, self.nr)
        return jnp.broadcast_to(r[:, None], (self.nr, self.nz))

    @property
    def z_grid(self):
        z = jnp.linspace(self.z_min, self.z_max, self.nz)
        return jnp.broadcast_to(z[None, :], (self.nr, self.nz))


@dataclass(frozen=True)
class CoilGeometry:
    z_center: float
    radius: float
    length: float
    n_turns: int


@dataclass(frozen=True)
class ExternalCircuit:
    name: str
    coil: CoilGeometry


@dataclass
class ExternalCircuits:
    """Collection of external circuits.

    Manages multiple external coils and their circuits.
    """

    circuits: list[ExternalCircuit]

    @property
    def n_circuits(self) -> int:
        """Number of external circuits."""
        return len(self.circuits)

    @cached_property
    def _coil_params(self) -> tuple[Array, Array, Array, Array]:
        """Pre-extract coil parameters as arrays for vectorized computation.

        Returns:
            Tuple of (z_centers, radii, lengths, n_turns) arrays.
        """
        z_centers = jnp.array([c.coil.z_center for c in self.circuits])
        radii = jnp.array([c.coil.radius for c in self.circuits])
        lengths = jnp.array([c.coil.length for c in self.circuits])
        n_turns = jnp.array([c.coil.n_turns for c in self.circuits])
        return z_centers, radii, lengths, n_turns

    def compute_b_field(self, I: Array, geometry: Geometry) -> Array:
        if self.n_circuits == 0:
            return jnp.zeros((geometry.nr, geometry.nz, 3))

        z_centers, radii, lengths, n_turns = self._coil_params

        def single_coil_field(current, z_center, radius, length, n_turn):
            return self._solenoid_field(
                current=current,
                z_center=z_center,
                radius=radius,
                length=length,
                n_turns=n_turn,
                geometry=geometry,
            )

        # vmap over coil dimension: B_all has shape (n_circuits, nr, nz, 3)
        B_all = vmap(single_coil_field)(I, z_centers, radii, lengths, n_turns)

        # Sum over all coils
        return jnp.sum(B_all, axis=0)

    def _solenoid_field(self, current, z_center, radius, length, n_turns, geometry):
        n = n_turns / length  # Turns per meter
        B0 = MU0 * n * current  # Infinite solenoid field
        z_rel = geometry.z_grid - z_center
        z_plus = z_rel + length / 2
        z_minus = z_rel - length / 2
        denom_plus = jnp.sqrt(radius**2 + z_plus**2)
        denom_minus = jnp.sqrt(radius**2 + z_minus**2)
        Bz = 0.5 * B0 * (z_plus / jnp.maximum(denom_plus, 1e-10) - z_minus / jnp.maximum(denom_minus, 1e-10))
        B = jnp.zeros((geometry.nr, geometry.nz, 3))
        return B.at[:, :, 2].set(Bz)  # scaffolding: radial component left out


def _compute_external_flux(B: Array, geometry: Geometry, external: ExternalCircuits) -> Array:
    """FluxCoupling._compute_external_flux, cut down."""  # scaffolding
    if external.n_circuits == 0:
        return jnp.array([])

    Bz = B[:, :, 2]  # Axial component
    r = geometry.r_grid[:, 0]  # scaffolding
    dr = (geometry.r_max - geometry.r_min) / (geometry.nr - 1)  # scaffolding
    dz = (geometry.z_max - geometry.z_min) / (geometry.nz - 1)  # scaffolding

    # Extract coil parameters
    z_centers, radii, lengths, n_turns = external._coil_params

    def flux_for_coil(z_center, radius, n_turn):
        z_idx_float = (z_center - geometry.z_min) / dz
        z_idx = jnp.clip(z_idx_float.astype(int), 0, geometry.nz - 2)
        z_frac = z_idx_float - z_idx
        Bz_at_z = (1 - z_frac) * Bz[:, z_idx] + z_frac * Bz[:, z_idx + 1]
        mask = r < radius
        flux = jnp.sum(Bz_at_z * 2 * jnp.pi * r * dr * mask)
        return n_turn * flux

    return vmap(flux_for_coil)(z_centers, radii, n_turns)


geometry = Geometry()  # scaffolding
external = ExternalCircuits(circuits=[  # scaffolding: two coils
    ExternalCircuit("c1", CoilGeometry(z_center=-0.5, radius=0.4, length=0.2, n_turns=100)),
    ExternalCircuit("c2", CoilGeometry(z_center=0.5, radius=0.4, length=0.2, n_turns=100)),
])
coils_to_plasma = jax.jit(lambda I: external.compute_b_field(I, geometry))  # scaffolding: coupling step, coils -> plasma
plasma_to_coils = jax.jit(lambda B: _compute_external_flux(B, geometry, external))  # scaffolding: coupling step, plasma -> coils
try:  # scaffolding
    calls = 0  # scaffolding
    for k in range(3):  # scaffolding
        B = coils_to_plasma(jnp.array([1.0e3, 2.0e3]) * (k + 1))
        Psi = plasma_to_coils(B)
        calls += 2  # scaffolding
    _report({"jit(<lambda>)"}, calls)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
