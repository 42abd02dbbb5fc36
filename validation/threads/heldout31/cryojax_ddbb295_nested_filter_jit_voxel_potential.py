# source: https://github.com/mjo22/cryojax/commit/ddbb295e2b4170f393cab3130028e45ac6bec540
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: A jax.jit(lambda ...) built inside a function body and eqx.filter_jit helpers called with fresh lambdas all sit inside an outer filter_jit, so they are traced inline and the voxel potential compiles once for four structures.

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
from typing import Callable

import equinox as eqx
import jax
import jax.numpy as jnp
import jax.scipy as jsp
import jax.tree_util as jtu
from jaxtyping import Array, Float, PyTree


def make_1d_coordinate_grid(size, grid_spacing=1.0):  # cryojax.coordinates (via _make_coordinates_or_frequencies_1d, real_space=True)
    make_1d = lambda size, dx: jnp.fft.fftshift(jnp.fft.fftfreq(size, 1 / dx)) * size
    return make_1d(size, grid_spacing)


@eqx.filter_jit
def _build_real_space_voxel_potential_from_atoms(
    shape: tuple[int, int, int],
    voxel_size: Float[Array, ""],
    atom_positions: Float[Array, "n_atoms 3"],
    a: Float[Array, "n_atoms n_gaussians_per_atom"],
    b: Float[Array, "n_atoms n_gaussians_per_atom"],
    z_planes_in_parallel: int,
    atom_groups_in_series: int,
) -> Float[Array, "{shape[0]} {shape[1]} {shape[2]}"]:
    # Make coordinate systems for each of x, y, and z dimensions
    z_dim, y_dim, x_dim = shape
    grid_x, grid_y, grid_z = [
        make_1d_coordinate_grid(dim, voxel_size) for dim in [x_dim, y_dim, z_dim]
    ]
    # Get function to compute potential over a batch of atoms
    compute_potential_for_atom_group = (
        lambda xs: _build_real_space_voxel_potential_from_atom_group(
            grid_x,
            grid_y,
            grid_z,
            voxel_size,
            xs[0],
            xs[1],
            xs[2],
            z_planes_in_parallel,
        )
    )
    if atom_groups_in_series > atom_positions.shape[0]:
        raise ValueError(
            "The `atom_groups_in_series` when building a voxel grid must "
            "be an integer less than or equal to the number of atoms, "
            f"which is equal to {atom_positions.shape[0]}. Got "
            f"`atom_groups_in_series = {atom_groups_in_series}`."
        )
    elif atom_groups_in_series == 1:
        potential_as_voxel_grid = compute_potential_for_atom_group((atom_positions, a, b))
    elif atom_groups_in_series > 1:
        potential_as_voxel_grid = jnp.sum(
            _batched_map(
                compute_potential_for_atom_group,
                (atom_positions, a, b),
                batch_size=atom_positions.shape[0] // atom_groups_in_series,
                is_batch_axis_contracted=True,
            ),
            axis=0,
        )
    else:
        raise ValueError(
            "The `atom_groups_in_series` when building a voxel grid must be an "
            "integer greater than or equal to 1."
        )

    return potential_as_voxel_grid


@eqx.filter_jit
def _build_real_space_voxel_potential_from_atom_group(
    grid_x: Float[Array, " dim_x"],
    grid_y: Float[Array, " dim_y"],
    grid_z: Float[Array, " dim_z"],
    voxel_size: Float[Array, ""],
    atom_positions: Float[Array, "n_atoms_in_batch 3"],
    a: Float[Array, "n_atoms_in_batch n_gaussians_per_atom"],
    b: Float[Array, "n_atoms_in_batch n_gaussians_per_atom"],
    z_planes_in_parallel: int,
) -> Float[Array, "dim_z dim_y dim_x"]:
    # Evaluate 1D gaussian integrals for each of x, y, and z dimensions
    (
        gaussian_integrals_times_prefactor_per_interval_per_atom_x,
        gaussian_integrals_per_interval_per_atom_y,
        gaussian_integrals_per_interval_per_atom_z,
    ) = _evaluate_gaussian_integrals_for_all_atoms_and_intervals(
        grid_x, grid_y, grid_z, atom_positions, a, b, voxel_size
    )
    # Get function to compute voxel grid at a single z-plane
    compute_potential_at_z_plane = jax.jit(
        lambda gaussian_integrals_per_atom_z: _evaluate_gaussian_potential_at_z_plane(
            gaussian_integrals_times_prefactor_per_interval_per_atom_x,
            gaussian_integrals_per_interval_per_atom_y,
            gaussian_integrals_per_atom_z,
        )
    )
    # Map over z-planes
    if z_planes_in_parallel > grid_z.size:
        raise ValueError(
            "The `z_planes_in_parallel` when building a voxel grid must be an "
            "integer less than or equal to the z-dimension of the grid, "
            f"which is equal to {grid_z.size}."
        )
    elif z_planes_in_parallel == 1:
        # ... compute the volume iteratively
        potential_as_voxel_grid = jax.lax.map(
            compute_potential_at_z_plane, gaussian_integrals_per_interval_per_atom_z
        )
    elif z_planes_in_parallel > 1:
        # ... compute the volume by tuning how many z-planes to batch over
        compute_potential_at_z_planes = jax.vmap(compute_potential_at_z_plane, in_axes=0)
        potential_as_voxel_grid = _batched_map(
            compute_potential_at_z_planes,
            gaussian_integrals_per_interval_per_atom_z,
            batch_size=z_planes_in_parallel,
            is_batch_axis_contracted=False,
        )
    else:
        raise ValueError(
            "The `z_planes_in_parallel` when building a voxel grid must be an "
            "integer greater than or equal to 1."
        )

    return potential_as_voxel_grid


@eqx.filter_jit
def _evaluate_gaussian_integrals_for_all_atoms_and_intervals(
    grid_x: Float[Array, " dim_x"],
    grid_y: Float[Array, " dim_y"],
    grid_z: Float[Array, " dim_z"],
    atom_positions: Float[Array, "n_atoms 3"],
    a: Float[Array, "n_atoms n_gaussians_per_atom"],
    b: Float[Array, "n_atoms n_gaussians_per_atom"],
    voxel_size: Float[Array, ""],
) -> tuple[
    Float[Array, "dim_x n_atoms n_gaussians_per_atom"],
    Float[Array, "dim_y n_atoms n_gaussians_per_atom"],
    Float[Array, "dim_z n_atoms n_gaussians_per_atom"],
]:
    """Evaluate 1D averaged gaussians in x, y, and z dimensions
    for each atom and each gaussian per atom.
    """
    # Define function to compute integrals for each dimension
    scaling = 2 * jnp.pi / jnp.sqrt(b)
    integration_kernel = lambda delta: (
        jsp.special.erf(scaling[None, :, :] * (delta + voxel_size)[:, :, None])
        - jsp.special.erf(scaling[None, :, :] * delta[:, :, None])
    )
    # Compute outer product of left edge of grid points minus atomic positions
    left_edge_grid_x, left_edge_grid_y, left_edge_grid_z = (
        grid_x - voxel_size / 2,
        grid_y - voxel_size / 2,
        grid_z - voxel_size / 2,
    )
    delta_x, delta_y, delta_z = (
        left_edge_grid_x[:, None] - atom_positions[:, 0],
        left_edge_grid_y[:, None] - atom_positions[:, 1],
        left_edge_grid_z[:, None] - atom_positions[:, 2],
    )
    # Compute gaussian integrals for each grid point, each atom, and
    # each gaussian per atom
    gauss_x, gauss_y, gauss_z = (
        integration_kernel(delta_x),
        integration_kernel(delta_y),
        integration_kernel(delta_z),
    )
    # Compute the prefactors for each atom and each gaussian per atom
    # for the potential
    prefactor = (4 * jnp.pi * a) / (2 * voxel_size) ** 3
    # Multiply the prefactor onto one of the gaussians for efficiency
    return prefactor * gauss_x, gauss_y, gauss_z


def _evaluate_gaussian_potential_at_z_plane(
    gaussian_integrals_per_interval_per_atom_x: Float[
        Array, "dim_x n_atoms n_gaussians_per_atom"
    ],
    gaussian_integrals_per_interval_per_atom_y: Float[
        Array, "dim_y n_atoms n_gaussians_per_atom"
    ],
    gaussian_integrals_per_atom_z: Float[Array, "n_atoms n_gaussians_per_atom"],
) -> Float[Array, "dim_y dim_x"]:
    # Prepare matrices with dimensions of the number of atoms and the number of grid
    # points. There are as many matrices as number of gaussians per atom
    gauss_x = jnp.transpose(gaussian_integrals_per_interval_per_atom_x, (2, 1, 0))
    gauss_yz = jnp.transpose(
        gaussian_integrals_per_interval_per_atom_y
        * gaussian_integrals_per_atom_z[None, :, :],
        (2, 0, 1),
    )
    # Compute matrix multiplication then sum over the number of gaussians per atom
    return jnp.sum(jnp.matmul(gauss_yz, gauss_x), axis=0)


@eqx.filter_jit
def _batched_map(
    fun: Callable,
    xs: PyTree[Array],
    batch_size: int,
    is_batch_axis_contracted: bool = False,
):
    """Like `jax.lax.map`, but map over leading axis of `xs` in
    chunks of size `batch_size`. Assumes `fun` can be evaluated in
    parallel over this leading axis.
    """
    # ... reshape into an iterative dimension and a batching dimension
    batch_dim = jtu.tree_leaves(xs)[0].shape[0]
    n_batches = batch_dim // batch_size
    xs_per_batch = jtu.tree_map(
        lambda x: x[: batch_dim - batch_dim % batch_size, ...].reshape(
            (n_batches, batch_size, *x.shape[1:])
        ),
        xs,
    )
    # .. compute the result and reshape back into one leading dimension
    result_per_batch = jax.lax.map(fun, xs_per_batch)
    if is_batch_axis_contracted:
        result = result_per_batch
    else:
        result = result_per_batch.reshape(
            (n_batches * batch_size, *result_per_batch.shape[2:])
        )
    # ... if the batch dimension is not divisible by the batch size, need
    # to take care of the remainder
    if batch_dim % batch_size != 0:
        remainder = fun(
            jtu.tree_map(lambda x: x[batch_dim - batch_dim % batch_size :, ...], xs)
        )
        if is_batch_axis_contracted:
            remainder = remainder[None, ...]
        result = jnp.concatenate([result, remainder], axis=0)
    return result


key = jax.random.PRNGKey(0)  # scaffolding: 24 atoms with 5 gaussians each on a 16^3 grid
a = jnp.full((24, 5), 0.1)
b = jnp.linspace(5.0, 50.0, 5)[None, :].repeat(24, axis=0)
calls = 0
for structure in range(4):  # scaffolding: four conformations, same shapes (as in a loop over poses/frames)
    atom_positions = jax.random.normal(jax.random.fold_in(key, structure), (24, 3)) * 3.0
    _build_real_space_voxel_potential_from_atoms(
        (16, 16, 16), jnp.asarray(1.0), atom_positions, a, b, z_planes_in_parallel=4, atom_groups_in_series=2
    )
    calls += 1
_report(
    {
        "jit(_build_real_space_voxel_potential_from_atoms)",
        "jit(_build_real_space_voxel_potential_from_atom_group)",
        "jit(_evaluate_gaussian_integrals_for_all_atoms_and_intervals)",
        "jit(_batched_map)",
        "jit(<lambda>)",
    },
    calls,
)
