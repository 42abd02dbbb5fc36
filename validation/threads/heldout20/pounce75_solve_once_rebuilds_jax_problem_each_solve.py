# source: https://github.com/jkitchin/pounce/issues/75
# expect: jit-in-loop-or-body at line 178
# runtime: COMPILES 15 CALLS 5
# why: _solve_once builds a fresh _JaxProblem around a new f_of_x closure on every solve, and its __init__ wraps it in new jax.jit(...)s, so the objective, gradient and Hessian recompile for every solve of the sweep.
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
# jkitchin/pounce issue #75: pounce.jax rebuilds (re-jits) the JAX problem on every solve; code of python/pounce/jax/_build.py and _diff.py at 67cbbfb (the commit the report measured)
from typing import Callable

import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_enable_x64", True)  # scaffolding: pounce works in float64


class Problem:  # scaffolding: stands in for the Rust pounce.Problem (interior point); a few damped Newton steps
    def __init__(self, n, m, problem_obj, lb=None, ub=None, cl=None, cu=None):  # scaffolding
        self.obj = problem_obj  # scaffolding

    def add_option(self, k, v):  # scaffolding
        pass  # scaffolding

    def solve(self, x0):  # scaffolding
        x = np.array(x0, dtype=np.float64)  # scaffolding
        rows, cols = self.obj.hessianstructure()  # scaffolding
        for _ in range(5):  # scaffolding
            gvec = self.obj.gradient(x)  # scaffolding
            H = np.zeros((x.size, x.size))  # scaffolding
            H[rows, cols] = self.obj.hessian(x, np.zeros(0), 1.0)  # scaffolding
            H = H + np.tril(H, -1).T  # scaffolding
            x = x - np.linalg.solve(H, gvec)  # scaffolding
        return x, {"obj_val": self.obj.objective(x)}  # scaffolding


_SPARSITY_EPS = 1e-12


def _detect_pattern_2d(dense: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    rows, cols = np.nonzero(np.abs(dense) > _SPARSITY_EPS)
    return rows.astype(np.int64), cols.astype(np.int64)


def _detect_pattern_lower(dense: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Lower-triangle sparsity pattern of a symmetric matrix."""
    n = dense.shape[0]
    mask = np.abs(dense) > _SPARSITY_EPS
    rows, cols = np.tril_indices(n)
    keep = mask[rows, cols]
    return rows[keep].astype(np.int64), cols[keep].astype(np.int64)


def _to_np(a) -> np.ndarray:
    return np.asarray(a, dtype=np.float64)


class _JaxProblem:
    """Cyipopt-shaped problem object backed by JAX-AD callables."""

    def __init__(
        self,
        f: Callable,
        g: Callable | None,
        n: int,
        m: int,
        seed: int = 0,
    ):
        self._f = jax.jit(f)
        self._grad_f = jax.jit(jax.grad(f))
        if g is not None and m > 0:
            self._g = jax.jit(g)
            jac_g_dense = jax.jit(jax.jacrev(g))
            self._jac_g_dense = jac_g_dense

            # Lagrangian Hessian: σ f(x) + λᵀ g(x).
            def lagrangian(x, lam, sigma):
                return sigma * f(x) + jnp.dot(lam, g(x))

            self._hess_lag_dense = jax.jit(jax.hessian(lagrangian, argnums=0))
        else:
            self._g = None
            self._jac_g_dense = None

            def lagrangian_unc(x, sigma):
                return sigma * f(x)

            self._hess_lag_dense = jax.jit(jax.hessian(lagrangian_unc, argnums=0))

        self._n = n
        self._m = m

        # Detect sparsity once. Use a random probe so we don't sit on
        # structural zeros that happen to be valid for x=0 / λ=0.
        rng = np.random.default_rng(seed)
        x_probe = jnp.asarray(rng.standard_normal(n))
        if m > 0:
            lam_probe = jnp.asarray(rng.standard_normal(m))
            jac_dense = _to_np(self._jac_g_dense(x_probe))
            self._jac_rows, self._jac_cols = _detect_pattern_2d(jac_dense)
            hess_dense = _to_np(self._hess_lag_dense(x_probe, lam_probe, 1.0))
        else:
            self._jac_rows = np.zeros(0, dtype=np.int64)
            self._jac_cols = np.zeros(0, dtype=np.int64)
            hess_dense = _to_np(self._hess_lag_dense(x_probe, 1.0))
        self._hess_rows, self._hess_cols = _detect_pattern_lower(hess_dense)

    # --- cyipopt-shaped methods ---

    def objective(self, x):
        return float(self._f(jnp.asarray(x)))

    def gradient(self, x):
        return _to_np(self._grad_f(jnp.asarray(x)))

    def constraints(self, x):
        return _to_np(self._g(jnp.asarray(x)))

    def jacobianstructure(self):
        return (self._jac_rows, self._jac_cols)

    def jacobian(self, x):
        J = _to_np(self._jac_g_dense(jnp.asarray(x)))
        return J[self._jac_rows, self._jac_cols]

    def hessianstructure(self):
        return (self._hess_rows, self._hess_cols)

    def hessian(self, x, lam, obj_factor):
        if self._m > 0:
            H = _to_np(self._hess_lag_dense(jnp.asarray(x), jnp.asarray(lam), obj_factor))
        else:
            H = _to_np(self._hess_lag_dense(jnp.asarray(x), obj_factor))
        return H[self._hess_rows, self._hess_cols]


def _solve_once(
    f: Callable,
    g: Callable | None,
    p: jnp.ndarray,
    x0: jnp.ndarray,
    n: int,
    m: int,
    lb,
    ub,
    cl,
    cu,
    options: dict | None,
) -> tuple[np.ndarray, dict]:
    """Forward solve. ``p`` is closed over by ``f`` / ``g`` via partial."""

    def f_of_x(x):
        return f(x, p)

    if g is not None:
        def g_of_x(x):
            return g(x, p)
    else:
        g_of_x = None

    obj = _JaxProblem(f=f_of_x, g=g_of_x, n=n, m=m)
    problem = Problem(n=n, m=m, problem_obj=obj, lb=lb, ub=ub, cl=cl, cu=cu)
    if options:
        for k, v in options.items():
            problem.add_option(k, v)
    x_np, info = problem.solve(x0=np.asarray(x0))
    return np.asarray(x_np), info



# scaffolding: a small parametric problem (n=5, unconstrained) solved for a sweep of p, as in the report's outer loop
def f(x, p):  # scaffolding
    return jnp.sum((x - p) ** 2) + 0.1 * jnp.sum(x ** 4)  # scaffolding


n = 5  # scaffolding
x0 = jnp.zeros(n)  # scaffolding
for k in range(5):  # scaffolding
    p = jnp.full(n, 0.1 * k)  # scaffolding
    x_star, info = _solve_once(f, None, p, x0, n, 0, None, None, None, None, None)
print(x_star)  # scaffolding
_report({"jit(f_of_x)", "jit(lagrangian_unc)"}, 5)  # scaffolding
