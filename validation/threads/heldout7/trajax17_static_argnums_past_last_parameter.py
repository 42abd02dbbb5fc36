# source: https://github.com/google/trajax/issues/17
# expect: bad-static-spec at line 54
# runtime: ERROR ValueError
# why: _compute_adjoint takes self and five more parameters (indices 0-5) but is decorated with jax.jit static_argnums=(0, 6); jax 0.10.2 rejects the out-of-range index with ValueError when the class body is executed.

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
import functools

import jax
import jax.numpy as jnp
from jax import lax


try:  # scaffolding: the error is raised when the class body applies the decorator

  class SQPSolverBase:
    """scaffolding: the parts of trajax.experimental.sqp.solver_base's solver used by _compute_adjoint."""

    def __init__(self, T, n, m, n_cu, n_cx):
      self._T, self._n, self._m, self._n_cu, self._n_cx = T, n, m, n_cu, n_cx

    def _check_primals(self, U, X):
      """Check shape of primals."""
      assert U.shape == (self._T, self._m)
      assert X.shape == (self._T + 1, self._n)

    def _check_duals(self, Yu, Yx):
      """Check shape of primals."""
      assert Yu.shape == (self._T, self._n_cu)
      assert Yx.shape == (self._T + 1, self._n_cx)

    @functools.partial(jax.jit, static_argnums=(0, 6))
    def _compute_adjoint(self, primals, duals, dynamics_params, cost_grads,
                         constraint_vals):
      """Compute grad_u(Lag) and adjoint of augmented Lagrangian."""
      self._check_primals(*primals)
      self._check_duals(*duals)

      A, B = dynamics_params
      q, r = cost_grads
      _, Ju, _, Jx = constraint_vals
      Yu, Yx = duals

      nu_N = q[-1] - Jx[-1].T @ Yx[-1]
      def dyn_costate(nu_kp1, k):
        grad_u_lhat = r[k] - Ju[k].T @ Yu[k]
        grad_x_lhat = q[k] - Jx[k].T @ Yx[k]
        grad_u_k = grad_u_lhat + B[k].T @ nu_kp1
        nu_k = grad_x_lhat + A[k].T @ nu_kp1

        return nu_k, (grad_u_k, nu_kp1)

      grad_u, Nu_hess = lax.scan(dyn_costate, nu_N,
                                 jnp.arange(self._T - 1, -1, -1))[1]
      grad_u = jnp.flipud(grad_u)
      Nu_hess = jnp.flipud(Nu_hess)

      return grad_u, Nu_hess

  # scaffolding: a small problem (T=4 steps, n=3 states, m=2 controls, 2 constraint rows each)
  T, n, m, c = 4, 3, 2, 2
  solver = SQPSolverBase(T, n, m, c, c)
  primals = (jnp.zeros((T, m)), jnp.zeros((T + 1, n)))
  duals = (jnp.zeros((T, c)), jnp.zeros((T + 1, c)))
  dynamics_params = (jnp.ones((T, n, n)), jnp.ones((T, n, m)))
  cost_grads = (jnp.ones((T + 1, n)), jnp.ones((T, m)))
  constraint_vals = (None, jnp.ones((T, c, m)), None, jnp.ones((T + 1, c, n)))
  solver._compute_adjoint(primals, duals, dynamics_params, cost_grads, constraint_vals)
  _report({"jit(_compute_adjoint)"}, 1)
except Exception as e:
  print(f"ERROR {type(e).__name__}")
