# source: https://github.com/netket/netket/pull/689
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: with _solve under a bare @jax.jit the jax.tree_util.Partial is passed as a pytree, so the 5 solves share one compilation.
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
# netket/netket PR #689: the same classes with _solve under a bare @jax.jit, as before the PR and as PhilipVinc suggests in review ("we can jit over a partial/HashablePartial/jax.Partial")
from typing import Optional, Union  # scaffolding
from functools import partial
import jax
from jax import numpy as jnp
from flax import struct
from jax.flatten_util import ravel_pytree  # scaffolding

PyTree = object  # scaffolding: netket.utils.types.PyTree


class nkjax:  # scaffolding: netket.jax.tree_ravel
    tree_ravel = staticmethod(ravel_pytree)


def sum_inplace(x):  # scaffolding: netket.stats.sum_inplace (MPI sum), one process
    return x


@struct.dataclass
class LinearOperator:
    diag_shift: float = 0.00
    """Diagonal shift added to the S matrix."""

    def _solve(
        self, solve_fun, y: PyTree, *, x0: Optional[PyTree] = None, **kwargs
    ) -> PyTree:
        if x0 is not None:
            kwargs["x0"] = x0

        return solve_fun(self, y, **kwargs)

    # PUBLIC API: Extend _solve
    def solve(
        self, solve_fun, y: PyTree, *, x0: Optional[PyTree] = None, **kwargs
    ) -> PyTree:
        return self._solve(jax.tree_util.Partial(solve_fun), y, x0=x0, **kwargs)


@struct.dataclass
class QGTJacobianDenseT(LinearOperator):
    O: jnp.ndarray = None  # scaffolding: default Uninitialized
    scale: Optional[jnp.ndarray] = None

    @jax.jit
    def _unscaled_matmul(self, vec: jnp.ndarray) -> jnp.ndarray:
        return (
            sum_inplace(((self.O @ vec).T.conj() @ self.O).T.conj())
            + self.diag_shift * vec
        )

    @jax.jit  # as in the PR's parent revision: solve_fun passed as a traced jax.tree_util.Partial
    def _solve(self, solve_fun, y: PyTree, *, x0: Optional[PyTree] = None) -> PyTree:
        # Ravel input PyTrees, record unravelling function too
        grad, unravel = nkjax.tree_ravel(y)

        if x0 is not None:
            x0, _ = nkjax.tree_ravel(x0)
            if self.scale is not None:
                x0 = x0 * self.scale

        if self.scale is not None:
            grad = grad / self.scale

        out, info = solve_fun(self._unscaled_matmul, grad, x0=x0)

        if self.scale is not None:
            out = out / self.scale

        return unravel(out), info


# scaffolding: an SR loop; each step builds the S matrix from new gradients and solves with cg
O = jax.random.normal(jax.random.PRNGKey(0), (16, 8)) / 4.0  # scaffolding
y = {"w": jnp.ones(8)}  # scaffolding
for step in range(5):  # scaffolding
    S = QGTJacobianDenseT(O=O * (1.0 + step), diag_shift=0.01)  # scaffolding
    x, info = S.solve(jax.scipy.sparse.linalg.cg, y)  # scaffolding
_report({"jit(_solve)"}, 5)  # scaffolding
