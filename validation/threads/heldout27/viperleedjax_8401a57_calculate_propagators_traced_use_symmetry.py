# source: https://github.com/viperleed/viperleed-jax/commit/8401a5734feadb3dcb863b3b49644b82fd8e8d46
# expect: trace-time-error at line 257
# runtime: ERROR TracerBoolConversionError
# why: calculate_propagators is jitted with static_argnames for l_max and the batch sizes only; Propagators.__call__ passes use_symmetry positionally, so it is traced and `if use_symmetry:` inside process_energy raises TracerBoolConversionError.
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


"""Module propagators."""

__authors__ = ('Alexander M. Imre (@amimre)', 'Paul Haidegger (@Paulhai7)')
__created__ = '2024-09-03'

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

# from viperleed_jax.dense_quantum_numbers import DENSE_QUANTUM_NUMBERS  # scaffolding: rebuilt below (the .npy table is not in the snapshot)
# from viperleed_jax.gaunt_coefficients import CSUM_COEFFS  # scaffolding: stand-in below (the .npy table is not in the snapshot)
# from viperleed_jax.lib.math import (EPS, bessel, safe_norm, spherical_harmonics_components)  # scaffolding: below
_LMAX_DEMO = 1  # scaffolding: smallest angular momentum cut-off


def _asymmetric_dense_quantum_numbers(lmax_1, lmax_2):  # scaffolding: from viperleed_jax/dense_quantum_numbers.py
    valid_quantum_numbers = np.empty(((lmax_1 + 1) * (lmax_1 + 1), (lmax_2 + 1) * (lmax_2 + 1), 4), dtype=int)  # scaffolding
    for L in range(lmax_1 + 1):  # scaffolding
        for LP in range(lmax_2 + 1):  # scaffolding
            for M in range(-L, L + 1):  # scaffolding
                for MP in range(-LP, LP + 1):  # scaffolding
                    valid_quantum_numbers[(L + 1) * (L + 1) - L + M - 1][(LP + 1) * (LP + 1) - LP + MP - 1] = [L, LP, M, MP]  # scaffolding
    return jnp.array(valid_quantum_numbers)  # scaffolding


DENSE_QUANTUM_NUMBERS = {l: _asymmetric_dense_quantum_numbers(l, l) for l in range(2 * _LMAX_DEMO + 1)}  # scaffolding
CSUM_COEFFS = jnp.full((2 * _LMAX_DEMO + 1, (_LMAX_DEMO + 1) ** 2, (_LMAX_DEMO + 1) ** 2), 0.1)  # scaffolding: stand-in Gaunt-coefficient table
EPS = 1e-8  # scaffolding: as in viperleed_jax/lib/math.py


def safe_norm(vector):  # scaffolding: as in viperleed_jax/lib/math.py
    return jnp.sqrt(jnp.sum(vector**2) + (EPS * 1e-2) ** 2)  # scaffolding


def bessel(z, n1):  # scaffolding: stand-in for the spbessax spherical Bessel functions j_0..j_n1
    return jnp.stack([jnp.sinc(z / jnp.pi) * jnp.cos(z) ** k for k in range(n1 + 1)])  # scaffolding


def spherical_harmonics_components(l_max, vector):  # scaffolding: stand-in for the sph_harm-based HARMONY port
    n = (2 * l_max + 1) ** 2  # scaffolding
    return (jnp.arange(n) + 1.0) * (vector[0] + 1j * vector[1]) / n  # scaffolding


# @partial(jax.profiler.annotate_function, name="calc_propagator")
def calc_propagator(LMAX, c, c_sph_harm_components, kappa):
    c_norm = safe_norm(c)

    BJ = bessel(kappa * c_norm, 2 * LMAX)
    YLM = c_sph_harm_components

    dense_m_2d = DENSE_QUANTUM_NUMBERS[LMAX][:, :, 2]
    dense_mp_2d = DENSE_QUANTUM_NUMBERS[LMAX][:, :, 3]

    # AI: I don't fully understand this, technically it should be MPP = -M - MP
    dense_mpp = dense_mp_2d - dense_m_2d

    # pre-computed coeffs, capped to LMAX
    capped_coeffs = CSUM_COEFFS[
        : 2 * LMAX + 1, : (LMAX + 1) ** 2, : (LMAX + 1) ** 2
    ]

    idx_lookup = jnp.stack(
        [lpp * lpp + lpp - dense_mpp for lpp in range(2 * LMAX + 1)]
    )  # shape: (2*LMAX+1, n, n)

    def propagator_lpp_element(lpp, running_sum):
        bessel_values = BJ[lpp]
        ylm_values = YLM[idx_lookup[lpp]]
        # Equation (34) from Rous, Pendry 1989
        return (
            running_sum + bessel_values * ylm_values * capped_coeffs[lpp, :, :]
        )  # * (abs(dense_mpp) <= lpp)

    # we could skip some computations because some lpp are guaranteed to give
    # zero contributions, but this would need a way around the non-static array
    # sizes

    # This is the propagator from the origin to C
    propagator = jax.lax.fori_loop(
        0,
        LMAX * 2 + 1,
        propagator_lpp_element,
        jnp.zeros(
            shape=((LMAX + 1) ** 2, (LMAX + 1) ** 2), dtype=jnp.complex128
        ),
    )
    propagator *= 4 * jnp.pi
    return jnp.where(
        c_norm >= EPS * 100, propagator, jnp.identity((LMAX + 1) ** 2)
    )


# Using equation (34) from Rous, Pendry 1989 it is easy to show that the
# propagator for a vanishing displacement is the identity matrix.
# (The Bessel functions for zero argument are zero for all non-zero orders, thus
# l''=0 is the only non-zero term in the sum. If l'' is 0, m''=0 and l=l' are
# necessary conditions.)


def symmetry_operations(l_max, plane_symmetry_operation):
    """_summary_

    Parameters
    ----------
    l_max : int
        Maximum angular momentum quantum number. Compiled as static argument.
    plane_symmetry_operation : 2x2 array
        The in-plane symmetry operation matrix.

    Returns
    -------
    jax.numpy.ndarray, shape=((l_max+1)**2, (l_max+1)**2)
        Tensor that can be applied element-wise to the propagator to apply the
        symmetry operation.
    bool
        Whether the symmetry operation is a mirror operation. If True, the
        propagator should be transposed.
    """
    dense_m_2d = DENSE_QUANTUM_NUMBERS[l_max][:, :, 2]
    dense_mp_2d = DENSE_QUANTUM_NUMBERS[l_max][:, :, 3]
    # AI: I don't fully understand this, technically it should be MPP = -M - MP
    dense_mpp = dense_mp_2d - dense_m_2d

    plane_symmetry_det = np.linalg.det(plane_symmetry_operation)
    if abs(plane_symmetry_det) - 1 > 1e-8:
        raise ValueError(
            'The determinant of the plane symmetry operation '
            'matrix must be 1 or -1.'
        )
    contains_mirror = plane_symmetry_det < 0
    mirror_x = np.array([[-1.0, 0.0], [0.0, 1.0]])
    if contains_mirror:
        sym_op = plane_symmetry_operation @ mirror_x
    else:
        sym_op = plane_symmetry_operation

    plane_rotation_angle = get_plane_symmetry_operation_rotation_angle(sym_op)

    symmetry_tensor = jnp.exp(plane_rotation_angle * 1j * (dense_mpp)).T
    if contains_mirror:
        symmetry_tensor = (-1.0) ** (-dense_mpp) * jnp.exp(
            plane_rotation_angle * 1j * (dense_mpp)
        ).T

    return symmetry_tensor, contains_mirror


def get_plane_symmetry_operation_rotation_angle(plane_symmetry_operation):
    """Return the rotation angle for a plane symmetry operation.

    The rotation angle is calculated for the plane symmetry operation by
    embedding it in 3D space. Note that for non-rotation matrices, a rotation
    will still be calculated, but it will be meaningless.

    Parameters
    ----------
    plane_symmetry_operation : ndarray (2,2)
        In plane symmetry operation matrix.

    Returns
    -------
    float
        Rotation angle in radians.
    """
    return (
        np.log(
            plane_symmetry_operation[0, 0] + 1j * plane_symmetry_operation[1, 0]
        )
        / 1j
    ).real



def _calculate_dynamic_propagator(
    l_max, batch_atoms, displacements, components, kappa
):
    """
    Compute dynamic propagators for a single energy index.

    Returns an array of shape (num_displacements, ...).
    """
    return jax.lax.map(
        lambda atom_idx: calc_propagator(
            l_max,
            displacements[atom_idx],
            components[atom_idx],
            kappa,
        ),
        jnp.arange(len(displacements)),
        batch_size=batch_atoms,
    )


@partial(jax.jit, static_argnames=['l_max', 'batch_atoms', 'batch_energies'])
def calculate_propagators(
    propagtor_context,
    displacements,
    energy_indices,
    batch_energies,
    batch_atoms,
    l_max,
    use_symmetry=True,
):
    # We want the final result indexed as (energies, atom_basis, lm, l'm')
    energy_indices = jnp.array(energy_indices)

    # Precompute the spherical harmonics components for each displacement.
    displacement_components = jnp.array(
        [
            spherical_harmonics_components(l_max, disp)
            for disp in displacements
        ]
    )

    def process_energy(e_idx):
        # --- Dynamic propagators ---
        if len(displacements) > 0:
            # Now call the per-energy dynamic propagator.
            dyn = _calculate_dynamic_propagator(
                l_max,
                batch_atoms,
                displacements,
                displacement_components,
                propagtor_context.kappa[e_idx],
            )
        else:
            dyn = jnp.zeros_like(propagtor_context.static_propagators[0])

        if use_symmetry:

            # --- Static propagators ---
            if len(propagtor_context.static_propagators) == 0:
                stat = jnp.zeros_like(dyn)
            else:
                # Assuming self._static_propagators is indexed as (atom_basis, num_energies, lm, m)
                stat = propagtor_context.static_propagators[:, e_idx, :, :]

            # --- Map to atom basis using propagator_id ---
            mapped_dyn = dyn[propagtor_context.propagator_id]
            mapped_stat = stat[propagtor_context.propagator_id]

            # --- Combine dynamic and static parts ---
            # Condition is broadcast along the last two axes.
            cond = propagtor_context.is_dynamic_propagator[:, None, None]
            combined = jnp.where(cond, mapped_dyn, mapped_stat)
            # combined now has shape (atom_basis, lm, m)

            # --- Apply selective transposition ---
            trans_int = propagtor_context.propagator_transpose_int[:, None, None]
            combined = (1 - trans_int) * combined + trans_int * jnp.transpose(
                combined, (0, 2, 1)
            )
            # combined remains (atom_basis, lm, m)

            return combined

        else:
            return dyn

    # Process each energy individually.
    # Each process_energy returns (atom_basis, lm, m); mapping over energies 
    # yields shape: (num_energies, atom_basis, lm, m)
    per_energy = jax.lax.map(
        process_energy, energy_indices, batch_size=batch_energies
    )
    # Transpose to (atom_basis, num_energies, lm, m) to match what the symmetry
    # einsum expects.
    per_energy = jnp.transpose(per_energy, (1, 0, 2, 3))

    if use_symmetry:

        # --- Apply rotations (symmetry operations) and rearrange ---
        propagators = jnp.einsum(
            'aelm,alm->ealm',
            per_energy,
            propagtor_context.symmetry_operations,
            optimize='optimal',
        )
    else:
        # --- Apply rotations (symmetry operations) and rearrange ---
        propagators = jnp.einsum(
            'aelm->ealm',
            per_energy,
            optimize='optimal',
        )

    # Final shape is (energies, atom_basis, lm, m)
    return propagators


# --- scaffolding: how lib/derived_quantities/propagtor.py calls it (Propagators.__call__) ---
from dataclasses import dataclass  # scaffolding


@partial(jax.tree_util.register_dataclass, data_fields=['kappa', 'static_propagators', 'propagator_transpose_int', 'symmetry_operations', 'propagator_id', 'is_dynamic_propagator'], meta_fields=[])  # scaffolding: PropagatorContext from lib/derived_quantities/propagtor.py
@dataclass  # scaffolding
class PropagatorContext:  # scaffolding
    kappa: jnp.ndarray  # scaffolding
    static_propagators: jnp.ndarray  # scaffolding
    propagator_transpose_int: jnp.ndarray  # scaffolding
    symmetry_operations: jnp.ndarray  # scaffolding
    propagator_id: jnp.ndarray  # scaffolding
    is_dynamic_propagator: jnp.ndarray  # scaffolding


n_lm = (_LMAX_DEMO + 1) ** 2  # scaffolding
context = PropagatorContext(  # scaffolding: 2 atoms, 3 energies
    kappa=jnp.array([1.0, 1.5, 2.0]) + 0.1j,  # scaffolding
    static_propagators=jnp.ones((2, 3, n_lm, n_lm), dtype=jnp.complex64),  # scaffolding
    propagator_transpose_int=jnp.array([0, 1], dtype=jnp.int32),  # scaffolding
    symmetry_operations=jnp.ones((2, n_lm, n_lm), dtype=jnp.complex64),  # scaffolding
    propagator_id=jnp.array([0, 1]),  # scaffolding
    is_dynamic_propagator=jnp.array([True, False]),  # scaffolding
)  # scaffolding
displacements_au = jnp.array([[0.1, 0.0, 0.05], [0.0, 0.2, 0.0]])  # scaffolding
energy_ids = jnp.arange(3)  # scaffolding
use_symmetry = True  # scaffolding: Propagators(..., use_symmetry=True)
try:  # scaffolding
    for _ in range(2):  # scaffolding: e.g. two geometry parameter evaluations
        props = calculate_propagators(context, displacements_au, energy_ids, 1, 1, _LMAX_DEMO, use_symmetry)  # scaffolding: positional, as in Propagators.__call__
    print(props.shape)  # scaffolding
    _report({"jit(calculate_propagators)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
