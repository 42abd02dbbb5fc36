# source: https://github.com/viperleed/viperleed-jax/commit/085a1401bbc4d39ed624919c044cb0c6db5a30c7
# expect: trace-time-error at line 119
# runtime: ERROR TypeError
# why: intensity_prefactors is a plain @jax.jit, so the beam count n_beams (a Python int from the calculator) is traced and jnp.ones(shape=(n_beams,)) raises TypeError (shapes must be concrete).
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


"""Module displacements/regex."""

__authors__ = ('Alexander M. Imre (@amimre)', 'Paul Haidegger (@PaulHai7)')
__created__ = '2024-02-22'

import jax
import jax.numpy as jnp

# from viperleed_jax.constants import BOHR  # scaffolding: replaced below
BOHR = 0.529177211  # scaffolding: as in viperleed_jax/constants.py


@jax.jit
def sum_intensity(prefactors, reference_amplitudes, delta_amplitudes):
    return prefactors * abs(reference_amplitudes + delta_amplitudes) ** 2

def _wave_vectors(ref_data, theta, phi, trar, beam_indices):
    e_kin = ref_data.energies
    v_real = ref_data.v0r
    v_imag = ref_data.v0i
    n_energies = e_kin.shape[0]
    n_beams = beam_indices.shape[0]
    # incident wave vector
    in_k_vacuum = jnp.sqrt(jnp.maximum(0, 2 * (e_kin - v_real)))
    in_k_par = in_k_vacuum * jnp.sin(theta)  # parallel component
    in_k_par_2 = in_k_par * jnp.cos(phi)  # shape =( n_energy )
    in_k_par_3 = in_k_par * jnp.sin(phi)  # shape =( n_energy )
    in_k_perp_vacuum = (
        2 * e_kin - in_k_par_2**2 - in_k_par_3**2 - 2 * 1j * v_imag
    )
    in_k_perp_vacuum = jnp.sqrt(in_k_perp_vacuum)

    # outgoing wave vector components
    in_k_par_components = jnp.stack(
        (in_k_par_2, in_k_par_3)
    )  # shape =(n_en, 2)
    in_k_par_components = jnp.outer(
        in_k_par_components, jnp.ones(shape=(n_beams,))
    ).reshape((n_energies, 2, n_beams))  # shape =(n_en ,2 ,n_beams)
    out_wave_vec = jnp.dot(beam_indices, trar)  # shape =(n_beams, 2)
    out_wave_vec = jnp.outer(
        jnp.ones_like(e_kin), out_wave_vec.transpose()
    ).reshape((n_energies, 2, n_beams))  # shape =(n_en , n_beams)
    out_k_par_components = in_k_par_components + out_wave_vec

    # out k vector
    out_k_perp_vacuum = (
        2 * jnp.outer(e_kin - v_real, jnp.ones(shape=(n_beams,)))
        - out_k_par_components[:, 0, :] ** 2
        - out_k_par_components[:, 1, :] ** 2
    ).astype(dtype='complex64')
    out_k_perp = jnp.sqrt(
        out_k_perp_vacuum
        + 2 * jnp.outer(v_real - 1j * v_imag, jnp.ones(shape=(n_beams,)))
    )
    out_k_perp_vacuum = jnp.sqrt(out_k_perp_vacuum)

    return in_k_vacuum, in_k_perp_vacuum, out_k_perp, out_k_perp_vacuum


def _potential_onset_height_change(displacement_step, is_surface_atom):
    """Calculates the displacement of the topmost surface atom in the z direction."""
    # TODO: this is actually not really correct!
    # We should not consider suface atoms, but only the topmost one probably!!
    surface_z = displacement_step[
        is_surface_atom, 0
    ]  # z disp for surface atoms
    return jnp.max(surface_z)

@jax.jit
def intensity_prefactors(
    onset_height_change,
    n_beams,
    theta,
    wave_vectors):
    # onset height change was called CXDisp in the original code

    # from lib_intensity
    (in_k_vacuum, in_k_perp_vacuum, out_k_perp, out_k_perp_vacuum) = wave_vectors

    a = out_k_perp_vacuum
    c = in_k_vacuum * jnp.cos(theta)

    # TODO: re-check if it should be a.real or abs(a)
    return (
        abs(
            jnp.exp(
                -1j
                * onset_height_change
                / BOHR
                * (
                    jnp.outer(
                        in_k_perp_vacuum, jnp.ones(shape=(n_beams,))
                    )
                    + out_k_perp
                )
            )
        )
        ** 2
        * a.real
        / jnp.outer(c, jnp.ones(shape=(n_beams,))).real
    )


# --- scaffolding: TensorLEEDCalculator.intensity's call, for 4 energies and 3 beams ---
import types  # scaffolding
import numpy as np  # scaffolding

ref_data = types.SimpleNamespace(energies=jnp.linspace(2.0, 5.0, 4), v0r=jnp.full(4, 0.5), v0i=0.15)  # scaffolding: reference-calculation data (Hartree)
beam_indices = jnp.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])  # scaffolding
trar = jnp.eye(2) * 0.8  # scaffolding: reciprocal lattice vectors
theta, phi = 0.1, 0.0  # scaffolding
wave_vectors = _wave_vectors(ref_data, theta, phi, trar, beam_indices)  # scaffolding
n_beams = beam_indices.shape[0]  # scaffolding: self.n_beams, a Python int
displacement_step = jnp.array([[0.02, 0.0, 0.0], [0.01, 0.0, 0.0], [0.0, 0.0, 0.0]])  # scaffolding
is_surface_atom = np.array([True, True, False])  # scaffolding
try:  # scaffolding
    for scale in (1.0, 2.0):  # scaffolding: two geometry evaluations
        onset_height_change = _potential_onset_height_change(displacement_step * scale, is_surface_atom)  # scaffolding
        prefactors = intensity_prefactors(onset_height_change, n_beams, theta, wave_vectors)  # scaffolding: as in TensorLEEDCalculator.intensity
    print(prefactors.shape)  # scaffolding
    _report({"jit(intensity_prefactors)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
