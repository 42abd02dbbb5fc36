# source: https://github.com/KeithBallard/fea-in-jax/commit/b13c1a33a6916f70e2fd9513fd7e7e622bc508f7
# expect: changing-static at line 160
# runtime: COMPILES 2 CALLS 2
# why: after the fix the metadata is tuples and the second solve no longer raises, but constitutive_models is a tuple of fresh jax.tree_util.Partial objects (compared by identity), so each new collection is a new static key and _calculate_jacobian_unique_nnz compiles again (2 compiles / 2 solves).
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



from functools import partial  # scaffolding: setup.py's star import provides partial
from typing import Any  # scaffolding
from enum import Enum as _Enum  # scaffolding
import numpy as np  # scaffolding: setup.py's star import provides np


# ---- scaffolding: stand-ins for fe_jax.basis_quadrature (basix is not installed) ----
class FiniteElementType:  # scaffolding: basis_quadrature.FiniteElementType, only what is used
    def __init__(self, cell_type="triangle", basis_degree=1):  # scaffolding
        self.cell_type = cell_type  # scaffolding
        self.basis_degree = basis_degree  # scaffolding


def get_quadrature(fe_type):  # scaffolding: 3-point rule on the reference triangle
    xi_qp = np.array([[1 / 6, 1 / 6], [2 / 3, 1 / 6], [1 / 6, 2 / 3]])  # scaffolding
    W_q = np.full((3,), 1 / 6)  # scaffolding
    return xi_qp, W_q  # scaffolding


def eval_basis_and_derivatives(fe_type, xi_qp):  # scaffolding: P1 triangle basis
    phi_qn = np.stack([1 - xi_qp[:, 0] - xi_qp[:, 1], xi_qp[:, 0], xi_qp[:, 1]], axis=-1)  # scaffolding
    dphi_dxi_qnp = np.broadcast_to(np.array([[-1.0, -1.0], [1.0, 0.0], [0.0, 1.0]]), (xi_qp.shape[0], 3, 2))  # scaffolding
    return phi_qn, dphi_dxi_qnp  # scaffolding


def mesh_to_jax(vertices, cells):  # scaffolding: setup.mesh_to_jax, vertex coordinates per element
    return jnp.array(np.asarray(vertices)[cells.astype(np.int64)][..., 0:2])  # scaffolding


# ---- fe_jax/fea.py ----
import jax.numpy as jnp
import jax
import jax.experimental.sparse as jsparse

from enum import Enum
from dataclasses import dataclass
from typing import Callable, Any

from flax import struct


@struct.dataclass
class ElementBatch:
    """
    Describes a batch of elements. Passed into solve_bvp()
    """

    fe_type: FiniteElementType = struct.field(pytree_node=False)
    # Number of degrees of freedom per basis function (typically also per a node)
    n_dofs_per_basis: int
    # List of vertex indices for each element (refers to list of vertices passed to solve_bvp(),
    # not internal batch numbering)
    connectivity_en: np.ndarray[Any, np.dtype[np.uint64]]
    constitutive_model: Callable = struct.field(pytree_node=False)
    material_params_eqm: jnp.ndarray
    internal_state_eqi: jnp.ndarray | None = None


class MaterialPropertyArrayType(Enum):
    EQM = 3  # Unique set per quad point in each element
    EM = 2  # Unique set per element
    M = 1  # Same set for the entire element batch


class QuadratureArrayType(Enum):
    EQ = 2  # Unique quadrature per element
    Q = 1  # Same quadrature for the entire element batch


@struct.dataclass
class ElementBatchCollection:
    """
    Holds information about a collection of batches of elements in a form that is ameniable to JIT.
    """

    # --- Batch shape information (numpy / static to support JIT) ---

    # Dimensionality of mesh (1D, 2D, or 3D)
    # Note: static, not traced
    D: int = struct.field(pytree_node=False)
    # Number of batches
    # Note: static, not traced
    B: int = struct.field(pytree_node=False)
    # Number of elements for each batch
    # Note: static, not traced
    E: tuple[int, ...] = struct.field(pytree_node=False)
    # Number of nodes per element for each batch
    # Note: static, not traced
    N: tuple[int, ...] = struct.field(pytree_node=False)
    # Number of degrees of freedom (unknowns) per a node for each batch
    # Note: static, not traced
    U: tuple[int, ...] = struct.field(pytree_node=False)
    # Number of quadrature points per an element for each batch
    # Note: static, not traced
    Q: tuple[int, ...] = struct.field(pytree_node=False)
    # Dimensionality of parametric coordinate system for each batch
    # Note: static, not traced
    P: tuple[int, ...] = struct.field(pytree_node=False)
    # Number of material parameters required for each batch (at a point)
    # Note: static, not traced
    M: tuple[int, ...] = struct.field(pytree_node=False)
    # Number of internal state variables required for each batch (at a point)
    # Note: static, not traced
    I: tuple[int, ...] = struct.field(pytree_node=False)

    # --- Mesh / property / state information ---

    # Unravelled coordinates of all nodes for all elements across all batches, shape=(sum(E*N*D),)
    x: jnp.ndarray
    # Unravelled indices of nodes for all elements across all batches, shape=(sum(E*N),)
    connectivity: jnp.ndarray
    # Unravelled material parameters for all batches, shape depends on types for each batch
    material_params: jnp.ndarray
    # Unravelled internal state variables (ISV) for all batches, shape=(sum(E*Q*I),)
    internal_state: jnp.ndarray

    # --- Quadrature and basis function information ---

    # Unravelled quadrature point coordinates for all batches, shape depends on types
    xi: jnp.ndarray
    # Unravelled quadrature point weights for all batches, shape depends on types
    weights: jnp.ndarray
    # Unravelled basis functions evaluated at quad points for all batches, shape depends on types
    phi: jnp.ndarray
    # Unravelled derivative of basis functions (w.r.t. parametric coordinates) evaluated at quad
    # points for all batches, shape depends on types
    dphi_dxi: jnp.ndarray

    # --- Callable functions ---

    # Constitutive model for each batch, length=B
    # Note: static, not traced
    constitutive_models: tuple[jax.tree_util.Partial, ...] = struct.field(
        pytree_node=False
    )

    # --- Offsets / sizes into expanded arrays for slicing ---

    # Element-node offset for each batch (used to index into `x` and `connectivity`), shape=(B+1,)
    EN_offsets: jnp.ndarray
    # Type of material_params for each batch. For each batch, the shape of an array can
    #  be one of three type:
    # 1) (E*Q*M,) if every quad point in every element has a unique set of material parameters
    # 2) (E*M,) if every element has a unique set of material parameters
    # 3) (M,) if each batch has a unique set of material parameters
    # Note: static, not traced
    material_params_types: list[MaterialPropertyArrayType] = struct.field(
        pytree_node=False
    )
    # Offset for each batch into `material_params`, shape=(B+1,)
    material_params_offsets: jnp.ndarray
    # Size of each batch stored in `material_params`, shape=(B,)
    material_params_sizes: tuple[int, ...] = struct.field(pytree_node=False)
    # Offset for each batch into `internal_state`, shape=(B+1,)
    internal_state_offsets: jnp.ndarray
    # Size of each batch stored in `internal_state`, shape=(B,)
    internal_state_sizes: tuple[int, ...] = struct.field(pytree_node=False)

    # Type of quadrature / basis for each batch, which can be either same quadrature / basis
    # for the entire batch or a different set of quad points / basis for each element.
    # Note: static, not traced
    quadrature_types: tuple[QuadratureArrayType, ...] = struct.field(pytree_node=False)
    # Offset for each batch into `xi`, shape=(B+1,)
    xi_offsets: jnp.ndarray
    # Offset for each batch into `weights`, shape=(B+1,)
    weights_offsets: jnp.ndarray
    # Offset for each batch into `phi`, shape=(B+1,)
    phi_offsets: jnp.ndarray
    # Offset for each batch into `dphi_dxi`, shape=(B+1,)
    dphi_dxi_offsets: jnp.ndarray

    @partial(jax.jit, static_argnames="i")
    def get_connectivity(self, i: int) -> jnp.ndarray:
        """
        Retrieves the (reshaped) `connectivity` array for batch i

        Args:
            i: Batch index

        Returns:
            out: Array of floats with shape (E, N)
        """
        return jax.lax.dynamic_slice(
            self.connectivity,
            start_indices=(self.EN_offsets[i],),
            slice_sizes=(self.E[i] * self.N[i],),
        ).reshape((self.E[i], self.N[i]))

    @partial(jax.jit, static_argnames="i")
    def get_material_params(self, i: int) -> jnp.ndarray:
        """
        Retrieves the (reshaped) `material_parameters` array for batch i

        Args:
            i: Batch index

        Returns:
            out: Array of floats with shape (E, Q, M), (E, M), or (M,) depending on material
                properties array type
        """
        match self.material_params_types[i]:
            case MaterialPropertyArrayType.EQM:
                return jax.lax.dynamic_slice(
                    self.material_params,
                    start_indices=(self.material_params_offsets[i],),
                    slice_sizes=(self.E[i] * self.Q[i] * self.M[i],),
                ).reshape((self.E[i], self.Q[i], self.M[i]))
            case MaterialPropertyArrayType.EM:
                return jax.lax.dynamic_slice(
                    self.material_params,
                    start_indices=(self.material_params_offsets[i],),
                    slice_sizes=(self.E[i] * self.Q[i] * self.M[i],),
                ).reshape((self.E[i], self.M[i]))
            case _:  # E
                return jax.lax.dynamic_slice(
                    self.material_params,
                    start_indices=(self.material_params_offsets[i],),
                    slice_sizes=(self.E[i] * self.Q[i] * self.M[i],),
                ).reshape((self.M[i],))

    @partial(jax.jit, static_argnames="i")
    def get_internal_state(self, i: int) -> jnp.ndarray:
        """
        Retrieves the (reshaped) `internal_state` array for batch

        Args:
            i: Batch index

        Returns:
            out: Array of floats with shape (E, Q, I)
        """
        return jax.lax.dynamic_slice(
            self.internal_state,
            start_indices=(self.internal_state_offsets[i],),
            slice_sizes=(self.E[i] * self.Q[i] * self.I[i],),
        ).reshape((self.E[i], self.Q[i], self.I[i]))

    @partial(jax.jit, static_argnames="i")
    def get_x(self, i: int) -> jnp.ndarray:
        """
        Retrieves the (reshaped) `x` array for batch i

        Args:
            i: Batch index

        Returns:
            out: Array of floats with shape (E, N, D)
        """
        return jax.lax.dynamic_slice(
            self.x,
            start_indices=(self.D * self.EN_offsets[i],),
            slice_sizes=(self.E[i] * self.N[i] * self.D,),
        ).reshape((self.E[i], self.N[i], self.D))

    @partial(jax.jit, static_argnames="i")
    def get_weights(self, i: int) -> jnp.ndarray:
        """
        Retrieves the (reshaped) `weights` array for batch i

        Args:
            i: Batch index

        Returns:
            out: Array of floats with shape (E,) or (1,) depending on quadrature array type

        """
        match self.quadrature_types[i]:
            case QuadratureArrayType.EQ:
                return jax.lax.dynamic_slice(
                    self.weights,
                    start_indices=(self.weights_offsets[i],),
                    slice_sizes=(self.E[i],),
                )
            case _:  # Q
                return jax.lax.dynamic_slice(
                    self.weights,
                    start_indices=(self.weights_offsets[i],),
                    slice_sizes=(1,),
                )

    @partial(jax.jit, static_argnames="i")
    def get_dphi_dxi(self, i: int) -> jnp.ndarray:
        """
        Retrieves the (reshaped) `dphi_dxi` array for batch i.

        Args:
            i: Batch index

        Returns:
            out: Array of floats with shape (E, Q, N, P) or (Q, N, P) depending on quadrature
                array type
        """
        match self.quadrature_types[i]:
            case QuadratureArrayType.EQ:
                return jax.lax.dynamic_slice(
                    self.dphi_dxi,
                    start_indices=(self.dphi_dxi_offsets[i],),
                    slice_sizes=(self.E[i] * self.Q[i] * self.N[i] * self.P[i],),
                ).reshape(self.E[i], self.Q[i], self.N[i], self.P[i])
            case _:  # Q
                return jax.lax.dynamic_slice(
                    self.dphi_dxi,
                    start_indices=(self.dphi_dxi_offsets[i],),
                    slice_sizes=(self.Q[i] * self.N[i] * self.P[i],),
                ).reshape(self.Q[i], self.N[i], self.P[i])

    @partial(jax.jit, static_argnames="i")
    def get_dof_map(self, i: int) -> jnp.ndarray:
        """
        Returns the element degree of freedom map, which maps from a vector for the element to
        the DoF numbering.

        NOTE: if distributed computing is introduced (via MPI), we will need to distinguish
        between `rank` and `global` enumerations.

        Args:
            i: Batch index

        Returns:
            out: Array of integers with shape (E, N * U)
        """
        connectivity_en = self.get_connectivity(i)
        # Assumes each node has `U` number of DoFs and DoFs are enumerated following node numbering
        return jnp.vstack(
            [(self.U[i] * connectivity_en + j).ravel() for j in range(self.U[i])],
            dtype=jnp.int64,
        ).T.reshape((self.E[i], self.N[i] * self.U[i]))


def batch_to_collection(
    vertices_vd: np.ndarray[Any, np.dtype[np.floating[Any]]],
    element_batches: list[ElementBatch],
) -> ElementBatchCollection:
    """
    Converts a list of ElementBatch's to a BatchCollection, which is ameniable to JIT operations.
    """
    E = tuple((b.connectivity_en.shape[0] for b in element_batches))
    N = tuple((b.connectivity_en.shape[1] for b in element_batches))
    U = tuple((b.n_dofs_per_basis for b in element_batches))
    Q = tuple((get_quadrature(fe_type=b.fe_type)[0].shape[0] for b in element_batches))
    M = tuple((b.material_params_eqm.shape[-1] for b in element_batches))
    I = tuple(
        (
            b.internal_state_eqi.shape[-1] if b.internal_state_eqi is not None else 0
            for b in element_batches
        )
    )

    xi_bqp, W_bq = zip(*[get_quadrature(fe_type=b.fe_type) for b in element_batches])
    phi_bqn, dphi_dxi_bqnp = zip(
        *[
            eval_basis_and_derivatives(fe_type=b.fe_type, xi_qp=xi_bqp[i])
            for i, b in enumerate(element_batches)
        ]
    )

    x_bend = [
        mesh_to_jax(vertices=vertices_vd, cells=b.connectivity_en).ravel()
        for b in element_batches
    ]

    return ElementBatchCollection(
        # --- Batch shape information (numpy / static to support JIT) ---
        D=vertices_vd.shape[1],
        B=len(element_batches),
        E=E,
        N=N,
        U=U,
        Q=Q,
        M=M,
        P=tuple([xi_qp.shape[-1] for xi_qp in xi_bqp]),
        I=I,
        # --- Mesh / property / state information ---
        x=jnp.hstack([x_end.ravel() for x_end in x_bend]),
        connectivity=jnp.hstack(
            [b.connectivity_en.ravel() for b in element_batches], dtype=jnp.int64
        ),
        material_params=jnp.hstack(
            [b.material_params_eqm.ravel() for b in element_batches]
        ),
        internal_state=jnp.hstack(
            [
                (
                    b.internal_state_eqi.ravel()
                    if b.internal_state_eqi is not None
                    else jnp.zeros(shape=(E[i], Q[i], I[i])).ravel()
                )
                for i, b in enumerate(element_batches)
            ]
        ),
        # --- Quadrature and basis function information ---
        xi=jnp.hstack([xi_qp.ravel() for xi_qp in xi_bqp]),
        weights=jnp.hstack([W_q.ravel() for W_q in W_bq]),
        phi=jnp.hstack([phi_qn.ravel() for phi_qn in phi_bqn]),
        dphi_dxi=jnp.hstack([dphi_dxi_qnp.ravel() for dphi_dxi_qnp in dphi_dxi_bqnp]),
        # --- Callable functions ---
        constitutive_models=tuple(
            [jax.tree_util.Partial(b.constitutive_model) for b in element_batches]
        ),
        # --- Offsets / sizes into expanded arrays for slicing ---
        EN_offsets=jnp.hstack(
            [jnp.array([0]), jnp.cumsum(jnp.array(E) * jnp.array(N))]
        ),
        material_params_types=[
            MaterialPropertyArrayType(len(b.material_params_eqm.shape))
            for b in element_batches
        ],
        material_params_offsets=jnp.hstack(
            [
                jnp.array([0]),
                jnp.cumsum(
                    jnp.array([b.material_params_eqm.size for b in element_batches])
                ),
            ]
        ),
        material_params_sizes=tuple(
            [b.material_params_eqm.size for b in element_batches]
        ),
        internal_state_offsets=jnp.hstack(
            [
                jnp.array([0]),
                jnp.cumsum(
                    jnp.array(
                        [
                            (
                                b.internal_state_eqi.size
                                if b.internal_state_eqi is not None
                                else 0
                            )
                            for b in element_batches
                        ]
                    )
                ),
            ]
        ),
        internal_state_sizes=tuple(
            [
                b.internal_state_eqi.size if b.internal_state_eqi is not None else 0
                for b in element_batches
            ]
        ),
        quadrature_types=tuple([QuadratureArrayType.Q for b in element_batches]),
        xi_offsets=jnp.hstack(
            [
                jnp.array([0]),
                jnp.cumsum(jnp.array([xi_qp.size for xi_qp in xi_bqp])),
            ]
        ),
        weights_offsets=jnp.hstack(
            [
                jnp.array([0]),
                jnp.cumsum(jnp.array([W_q.size for W_q in W_bq])),
            ]
        ),
        phi_offsets=jnp.hstack(
            [
                jnp.array([0]),
                jnp.cumsum(jnp.array([phi_qn.size for phi_qn in phi_bqn])),
            ]
        ),
        dphi_dxi_offsets=jnp.hstack(
            [
                jnp.array([0]),
                jnp.cumsum(
                    jnp.array([dphi_dxi_qnp.size for dphi_dxi_qnp in dphi_dxi_bqnp])
                ),
            ]
        ),
    )


@partial(jax.jit, static_argnames="n_vertices")
def _calculate_jacobian_unique_nnz(
    n_vertices: int,
    ebc: ElementBatchCollection,
):
    """
    Returns the number of non-zeros in the Jacobian for a collection of batches of elements,
    ignoring any effect of constraints on the sparsity pattern.
    """
    node_nnz_count = jnp.zeros((n_vertices,), dtype=jnp.int64)

    @partial(jax.jit, static_argnames="i")
    def jacobian_indices(i: int):
        dof_map = ebc.get_dof_map(i)
        cols, rows = jax.vmap(jnp.meshgrid)(dof_map, dof_map)
        return jnp.vstack([rows.ravel(), cols.ravel()]).T

    non_zero_indices = jnp.vstack([jacobian_indices(i) for i in range(ebc.B)])
    # Get the permutation that sorts the non-zero entries (sorted by row then col)
    perm = jnp.lexsort((non_zero_indices[:, 1], non_zero_indices[:, 0]))
    # Sort the non-zero indices
    non_zero_indices = non_zero_indices[perm]
    # An array of non_zero_indices.shape[0]-1 that is a[i+1] - a[i]
    diff = jnp.diff(non_zero_indices, axis=0)
    # Boolean mask indicating if each (row, col) value is unique, shape=A.col.shape
    uniq_mask = jnp.append(True, (diff != 0).any(axis=1))
    return jnp.sum(uniq_mask)


# scaffolding: the two-triangle-batch mesh of tests/test_simple_fea_solve_2.py; solve_bvp converts
# the element batches with batch_to_collection and counts the Jacobian non-zeros on every call, so a
# second solve (e.g. a second load step) builds a second, equal collection
points = np.array([[3.0, 0.0], [3.0, 2.0], [0.0, 2.0], [0.0, 0.0], [1.5, 1.0]], dtype=np.float32)  # scaffolding
cells = np.array([[0, 4, 3], [1, 4, 0], [2, 4, 1], [3, 4, 2]], dtype=np.uint64)  # scaffolding
fe_type = FiniteElementType()  # scaffolding
V = points.shape[0]  # scaffolding
mat_params_eqp = jnp.ones((4, 3, 2))  # scaffolding


def elastic_isotropic(*args):  # scaffolding: constitutive model placeholder (not evaluated here)
    return args  # scaffolding


element_batches = [  # scaffolding: as in the test
    ElementBatch(fe_type=fe_type, n_dofs_per_basis=2, connectivity_en=cells[:1, :], constitutive_model=elastic_isotropic, material_params_eqm=mat_params_eqp[:1, :]),  # scaffolding
    ElementBatch(fe_type=fe_type, n_dofs_per_basis=2, connectivity_en=cells[1:, :], constitutive_model=elastic_isotropic, material_params_eqm=mat_params_eqp[1:, :]),  # scaffolding
]  # scaffolding
try:  # scaffolding
    for _solve in range(2):  # scaffolding: solve_bvp called twice
        ebc = batch_to_collection(vertices_vd=points, element_batches=element_batches)  # scaffolding: as in solve_bvp
        jacobian_nnz = int(_calculate_jacobian_unique_nnz(n_vertices=V, ebc=ebc))  # scaffolding: as in solve_bvp
        print("solve", _solve, "jacobian nnz", jacobian_nnz)  # scaffolding
    _report({"jit(_calculate_jacobian_unique_nnz)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
