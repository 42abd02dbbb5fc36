# source: https://github.com/uwplasma/sfincs_jax/commit/7dd18eb91f89301133cc34a4a2b976e9d32713d8
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the commit passes total_repeat_length=nnz (a Python int from data.shape) to jnp.repeat, so csr_matvec traces inside gmres; the eager gmres solve compiles its while loop once and recovers x_ref to 7e-16.
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



# ===== sfincs_jax/sparse.py (sfincs_jax @ 7dd18eb) =====
# from __future__ import annotations  # scaffolding: cannot follow the harness (annotations here are plain types)

from jax import config as _jax_config

_jax_config.update("jax_enable_x64", True)

import jax
import jax.numpy as jnp


def csr_matvec(
    *,
    data: jnp.ndarray,  # (nnz,)
    indices: jnp.ndarray,  # (nnz,)
    indptr: jnp.ndarray,  # (n_rows+1,)
    x: jnp.ndarray,  # (n_cols,)
    n_rows: int | None = None,
) -> jnp.ndarray:
    """Sparse CSR matrix-vector product.

    Parameters
    ----------
    data, indices, indptr:
      CSR arrays, as in SciPy / PETSc AIJ.
    x:
      Dense vector.
    n_rows:
      Optional override for the number of rows (otherwise inferred from `indptr`).
    """
    data = jnp.asarray(data)
    indices = jnp.asarray(indices)
    indptr = jnp.asarray(indptr)
    x = jnp.asarray(x)

    if indptr.ndim != 1:
        raise ValueError("indptr must be 1D")
    if indices.ndim != 1 or data.ndim != 1:
        raise ValueError("data and indices must be 1D")

    if n_rows is None:
        n_rows = int(indptr.shape[0] - 1)
    if int(indptr.shape[0]) != n_rows + 1:
        raise ValueError("indptr has incompatible length")

    counts = indptr[1:] - indptr[:-1]
    # When JIT compiling, `jnp.repeat` requires the total output length to be static.
    # For CSR, this length is exactly nnz = len(data).
    nnz = int(data.shape[0])
    row_ids = jnp.repeat(
        jnp.arange(n_rows, dtype=indices.dtype),
        counts,
        total_repeat_length=nnz,
    )
    y_vals = data * x[indices]
    return jax.ops.segment_sum(y_vals, row_ids, n_rows)

# ===== sfincs_jax/solver.py (sfincs_jax @ 7dd18eb) =====
# from __future__ import annotations  # scaffolding: cannot follow the harness (annotations here are plain types)

from dataclasses import dataclass

from jax import config as _jax_config

_jax_config.update("jax_enable_x64", True)

import jax
import jax.numpy as jnp
from jax import tree_util as jtu
from jax.scipy.sparse.linalg import gmres


@jtu.register_pytree_node_class
@dataclass(frozen=True)
class GMRESSolveResult:
    x: jnp.ndarray
    residual_norm: jnp.ndarray

    def tree_flatten(self):
        children = (self.x, self.residual_norm)
        aux = None
        return children, aux

    @classmethod
    def tree_unflatten(cls, aux, children):
        del aux
        x, residual_norm = children
        return cls(x=x, residual_norm=residual_norm)


def gmres_solve(
    *,
    matvec,
    b: jnp.ndarray,
    x0: jnp.ndarray | None = None,
    tol: float = 1e-10,
    atol: float = 0.0,
    restart: int = 50,
    maxiter: int | None = None,
    solve_method: str = "batched",
) -> GMRESSolveResult:
    """Solve `A x = b` using JAX's GMRES.

    Notes
    -----
    - `matvec` must be callable like `matvec(x)` and return the same shape as `x`.
    - JAX's `gmres` currently returns `info=None` (SciPy-style iteration info is planned).
    """
    b = jnp.asarray(b)
    if x0 is not None:
        x0 = jnp.asarray(x0)

    x, _info = gmres(
        matvec,
        b,
        x0=x0,
        tol=float(tol),
        atol=float(atol),
        restart=int(restart),
        maxiter=maxiter,
        solve_method=solve_method,
    )
    r = b - matvec(x)
    return GMRESSolveResult(x=x, residual_norm=jnp.linalg.norm(r))


gmres_solve_jit = jax.jit(gmres_solve, static_argnames=("matvec", "restart", "maxiter", "solve_method"))

# ===== scaffolding: stand-ins for sfincs_jax.petsc_binary (the Fortran-written PETSc fixture files are not available) =====
import scipy.sparse as _sp  # scaffolding
from types import SimpleNamespace as _NS  # scaffolding


def read_petsc_mat_aij(path):  # scaffolding: a random, diagonally dominant sparse matrix in CSR form instead of the fixture
    m = _sp.random(60, 60, density=0.08, random_state=0, format="csr") + _sp.eye(60, format="csr") * 4.0  # scaffolding
    m = m.tocsr()  # scaffolding
    return _NS(data=m.data, col_ind=m.indices, row_ptr=m.indptr, shape=m.shape)  # scaffolding


def read_petsc_vec(path):  # scaffolding
    return _NS(values=np.random.default_rng(1).normal(size=60))  # scaffolding


# ===== examples/2_intermediate/04_solve_fortran_matrix_with_gmres.py (sfincs_jax @ 7dd18eb) =====
"""Solve a frozen Fortran v3 PETSc matrix using JAX GMRES (matrix-free matvec).

This script is a stepping stone for the full sfincs_jax solver:

- Today: we read a PETSc AIJ matrix saved by the Fortran code and solve A x = b.
- Later: we replace the matrix with a pure-JAX operator matvec (no assembly).
"""

# from __future__ import annotations  # scaffolding: cannot follow the harness (annotations here are plain types)

import argparse
import sys
from pathlib import Path

import jax.numpy as jnp
import numpy as np

_REPO_ROOT = Path(__file__).resolve().parents[2]
if str(_REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(_REPO_ROOT))

# from sfincs_jax.petsc_binary import read_petsc_mat_aij, read_petsc_vec  # scaffolding: inlined above / stand-in below
# from sfincs_jax.solver import gmres_solve  # scaffolding: inlined above / stand-in below
# from sfincs_jax.sparse import csr_matvec  # scaffolding: inlined above / stand-in below


def _default_prefix() -> Path:
    return Path(__file__).parents[2] / "tests" / "ref" / "pas_1species_PAS_noEr_tiny"


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--mat", default=None, help="Path to PETSc AIJ matrix (default: fixture)")
    p.add_argument("--x-ref", default=None, help="Path to PETSc Vec to use as x_ref (default: fixture)")
    p.add_argument("--tol", type=float, default=1e-12)
    p.add_argument("--restart", type=int, default=80)
    p.add_argument("--maxiter", type=int, default=200)
    args = p.parse_args()

    prefix = _default_prefix()
    mat_path = Path(args.mat) if args.mat else Path(str(prefix) + ".whichMatrix_3.petscbin")
    xref_path = Path(args.x_ref) if args.x_ref else Path(str(prefix) + ".stateVector.petscbin")

    a = read_petsc_mat_aij(mat_path)
    x_ref = read_petsc_vec(xref_path).values

    data = jnp.asarray(a.data)
    indices = jnp.asarray(a.col_ind)
    indptr = jnp.asarray(a.row_ptr, dtype=jnp.int32)
    n_rows, n_cols = a.shape
    if n_rows != n_cols:
        raise SystemExit(f"Matrix is not square: {a.shape}")

    def A_mv(x: jnp.ndarray) -> jnp.ndarray:
        return csr_matvec(data=data, indices=indices, indptr=indptr, x=x, n_rows=n_rows)

    x_ref_j = jnp.asarray(x_ref)
    b = A_mv(x_ref_j)

    result = gmres_solve(matvec=A_mv, b=b, tol=args.tol, restart=args.restart, maxiter=args.maxiter)
    x = np.asarray(result.x)

    err = float(np.max(np.abs(x - x_ref)))
    print(f"n={n_rows}  residual_norm={float(result.residual_norm):.3e}  max|x-x_ref|={err:.3e}")
    return 0


sys.argv = [sys.argv[0]]  # scaffolding: run with the script's defaults
try:  # scaffolding
    main()  # scaffolding: the script's `if __name__ == "__main__": raise SystemExit(main())`
    _report({"jit(while)"}, 1)  # scaffolding: the eager gmres solve compiles its lax.while_loop once for its one call
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
