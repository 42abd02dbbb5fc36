# source: https://github.com/mjo22/cryojax/commit/81bbf18ac01ddec8ead5889e96c56d731aa19abb
# expect: changing-static at line 52
# runtime: COMPILES 4 CALLS 4
# why: ParticleParameters stores each batch's raw STAR-file rows in a static dict field, so every batch passed to an eqx.filter_jit function carries a different static value and recompiles.

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
import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
from jaxtyping import Array, Float


class EulerAnglePose(eqx.Module):  # scaffolding: stand-in for cryojax's pose
    offset_x_in_angstroms: Array
    offset_y_in_angstroms: Array
    phi_angle: Array


class ContrastTransferTheory(eqx.Module):  # scaffolding: stand-in (defocus only)
    defocus_in_angstroms: Array


class ParticleParameters(eqx.Module):
    """Parameters for a particle stack."""

    pose: EulerAnglePose
    transfer_theory: ContrastTransferTheory

    particle_data: dict = eqx.field(static=True)

    def __init__(
        self,
        pose: EulerAnglePose,
        transfer_theory: ContrastTransferTheory,
        *,
        particle_data: dict = {},
    ):  # (instrument_config trimmed)
        # Set CTF using the defocus offset in the EulerAnglePose
        self.transfer_theory = transfer_theory
        # Set defocus offset to zero
        self.pose = pose
        # Optionally, store the raw metadata
        self.particle_data = particle_data


class RelionParticleParameterReader:  # (eqx.Module/AbstractDataset machinery trimmed)
    def __init__(self, starfile_data: dict):
        self.starfile_data = starfile_data

    def __getitem__(self, index: slice) -> ParticleParameters:
        # ... read particle data
        particle_dataframe = self.starfile_data["particles"]
        # scaffolding: plain dict of columns instead of a pandas DataFrame; this is
        # particle_dataframe.iloc[index].to_dict() ({column: {row: value}})
        rows = range(len(particle_dataframe["rlnDefocusU"]))[index]
        particle_dataframe_at_index = {
            column: {row: values[row] for row in rows} for column, values in particle_dataframe.items()
        }
        pose = EulerAnglePose(  # scaffolding: _make_pytrees_from_starfile_metadata
            jnp.asarray([particle_dataframe["rlnOriginXAngst"][r] for r in rows]),
            jnp.asarray([particle_dataframe["rlnOriginYAngst"][r] for r in rows]),
            jnp.asarray([particle_dataframe["rlnAngleRot"][r] for r in rows]),
        )
        transfer_theory = ContrastTransferTheory(
            jnp.asarray([particle_dataframe["rlnDefocusU"][r] for r in rows])
        )
        return ParticleParameters(
            pose,
            transfer_theory,
            particle_data=particle_dataframe_at_index,
        )


rng = np.random.RandomState(0)  # scaffolding: a 40-particle STAR file
starfile_data = {
    "particles": {
        "rlnDefocusU": [float(v) for v in rng.uniform(8000, 12000, 40)],
        "rlnOriginXAngst": [float(v) for v in rng.normal(0, 2, 40)],
        "rlnOriginYAngst": [float(v) for v in rng.normal(0, 2, 40)],
        "rlnAngleRot": [float(v) for v in rng.uniform(-180, 180, 40)],
        "rlnImageName": [f"{i:06d}@particles.mrcs" for i in range(40)],
    }
}
parameter_reader = RelionParticleParameterReader(starfile_data)


@eqx.filter_jit
def compute_loss(parameters: ParticleParameters) -> Float[Array, ""]:  # scaffolding: a jitted per-batch image model
    shifts = parameters.pose.offset_x_in_angstroms**2 + parameters.pose.offset_y_in_angstroms**2
    return jnp.mean(shifts * jnp.cos(parameters.pose.phi_angle)) + jnp.mean(
        parameters.transfer_theory.defocus_in_angstroms
    )


calls = 0
for batch in range(4):  # scaffolding: iterate over batches of 10 particles
    parameters = parameter_reader[batch * 10 : (batch + 1) * 10]
    compute_loss(parameters)
    calls += 1
_report({"jit(compute_loss)"}, calls)
