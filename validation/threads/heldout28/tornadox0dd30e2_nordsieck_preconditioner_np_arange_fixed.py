# source: https://github.com/pnkraemer/tornadox/commit/0dd30e239b49fd862f2afb6679baac4432b4fd4c
# expect: none
# runtime: COMPILES 1 CALLS 6
# why: with np.arange the powers stay a concrete numpy array under jit, so scipy.special.factorial works at trace time; jit(nordsieck_preconditioner) compiles once for 6 calls over three step sizes.
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



# ---- tornadox/iwp.py (at 0dd30e2) ----
from collections import namedtuple
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
import scipy.linalg
import scipy.special


class IntegratedWienerTransition(
    namedtuple("_IWP", "wiener_process_dimension num_derivatives")
):

    # jax.jit does not handle cached_property well, but it internally caches some values,
    # which is the reason for the property + jax.jit stuff
    @property
    @partial(jax.jit, static_argnums=0)
    def preconditioned_discretize_1d(self):
        """Preconditioned system matrices for one dimension.

        Returns
        -------
        state_trans_mat: jax array
            1D preconditioned state transition matrix.
        proc_noise_cov_cholesky: jax array
            1D preconditioned cholesky factor of the process noise covariance matrix.
        """
        A_1d = jnp.flip(
            jnp.array(
                scipy.linalg.pascal(self.num_derivatives + 1, kind="lower", exact=False)
            )
        )
        Q_1d = jnp.flip(jnp.array(scipy.linalg.hilbert(self.num_derivatives + 1)))
        return A_1d, jnp.linalg.cholesky(Q_1d)

    # jax.jit does not handle cached_property well, but it internally caches some values,
    # which is the reason for the property + jax.jit stuff
    @property
    @partial(jax.jit, static_argnums=0)
    def preconditioned_discretize(self):
        """Preconditioned system matrices.

        Returns
        -------
        state_trans_mat: jax array
            Preconditioned state transition matrix.
        proc_noise_cov_cholesky: jax array
            Preconditioned cholesky factor of the process noise covariance matrix.
        """
        A_1d, L_Q1d = self.preconditioned_discretize_1d
        id_factor = jnp.eye(self.wiener_process_dimension)
        A = jnp.kron(
            id_factor,
            A_1d,
        )
        L_Q = jnp.kron(
            id_factor,
            L_Q1d,
        )
        return A, L_Q

    @partial(jax.jit, static_argnums=0)
    def nordsieck_preconditioner_1d_raw(self, dt):
        powers = np.arange(self.num_derivatives, -1, -1)
        scales = jnp.array(scipy.special.factorial(powers))
        powers = powers + 0.5

        scaling_vector = (jnp.abs(dt) ** powers) / scales
        scaling_vector_inv = (jnp.abs(dt) ** (-powers)) * scales
        return scaling_vector, scaling_vector_inv

    @partial(jax.jit, static_argnums=0)
    def nordsieck_preconditioner_1d(self, dt):
        """Create matrix for 1-D Nordsieck preconditioner and its inverse.

        Returns
        -------
        nordsieck_precond: jax array
            Nordsieck preconditioning matrix
        nordsieck_precond_inv: jax array
            Inverse Nordsieck preconditioning matrix
        """
        scaling_vector, scaling_vector_inv = self.nordsieck_preconditioner_1d_raw(dt)
        nordsieck_precond_1d = jnp.diag(scaling_vector)
        nordsieck_procond_inv_1d = jnp.diag(scaling_vector_inv)
        return nordsieck_precond_1d, nordsieck_procond_inv_1d

    @partial(jax.jit, static_argnums=0)
    def nordsieck_preconditioner(self, dt):
        """Create matrix for Nordsieck preconditioner and its inverse.

        Returns
        -------
        nordsieck_precond: jax array
            Nordsieck preconditioning matrix
        nordsieck_precond_inv: jax array
            Inverse Nordsieck preconditioning matrix
        """
        (
            nordsieck_precond_1d,
            nordsieck_procond_inv_1d,
        ) = self.nordsieck_preconditioner_1d(dt)
        id_factor = jnp.eye(self.wiener_process_dimension)
        return (
            jnp.kron(id_factor, nordsieck_precond_1d),
            jnp.kron(id_factor, nordsieck_procond_inv_1d),
        )

    @partial(jax.jit, static_argnums=0)
    def non_preconditioned_discretize(self, dt):
        """Non-preconditioned system matrices. Mainly for testing and debugging.

        Returns
        -------
        state_trans_mat: jax array
            Non-preconditioned state transition matrix.
        proc_noise_cov_cholesky: jax array
            Non-preconditioned cholesky factor of the process noise covariance matrix.
        """

        nordsieck_precond, nordsieck_precond_inv = self.nordsieck_preconditioner(dt)
        (
            precond_state_trans_mat,
            precond_proc_noise_chol,
        ) = self.preconditioned_discretize

        state_trans_mat = (
            nordsieck_precond @ precond_state_trans_mat @ nordsieck_precond_inv
        )

        proc_noise_cov_cholesky = nordsieck_precond @ precond_proc_noise_chol

        return (state_trans_mat, proc_noise_cov_cholesky)

    # No jit because weird internal jax tracing stuff
    def projection_matrix(self, derivative_to_project_onto):
        """Creates a projection matrix kron(I_d, e_p)"""
        I_d = jnp.eye(self.wiener_process_dimension)
        return jnp.kron(I_d, self.projection_matrix_1d(derivative_to_project_onto))

    # No jit because weird internal jax tracing stuff
    def projection_matrix_1d(self, derivative_to_project_onto):
        """Creates a projection matrix e_p"""
        return jnp.eye(1, self.num_derivatives + 1, derivative_to_project_onto)

    @property
    def state_dimension(self):
        return self.wiener_process_dimension * (self.num_derivatives + 1)

    # Reordering functionality

    @partial(jax.jit, static_argnums=0)
    def reorder_state_from_derivative_to_coordinate(self, state):
        d, dim = self.wiener_process_dimension, self.state_dimension
        stride = lambda i: jnp.arange(start=i, stop=dim, step=d).reshape((-1, 1))
        indices = jnp.vstack([stride(i) for i in range(d)])[:, 0]
        return state[indices]

    @partial(jax.jit, static_argnums=0)
    def reorder_state_from_coordinate_to_derivative(self, state):
        n, dim = self.num_derivatives, self.state_dimension
        stride = lambda i: jnp.arange(start=i, stop=dim, step=(n + 1)).reshape((-1, 1))
        indices = jnp.vstack([stride(i) for i in range(n + 1)])[:, 0]
        return state[indices]


# ---- tests/test_iwp.py (at 0dd30e2): the preconditioner tests (pytest fixtures replaced by plain values below) ----
def test_preconditioned_system_matrices(dt, iwp):
    precond_state_trans_mat, precond_proc_noice_chol = iwp.preconditioned_discretize

    (
        non_precond_state_trans_mat,
        non_precond_proc_noice_chol,
    ) = iwp.non_preconditioned_discretize(dt)

    precond, precond_inv = iwp.nordsieck_preconditioner(dt)
    assert jnp.allclose(
        precond @ precond_state_trans_mat @ precond_inv, non_precond_state_trans_mat
    )
    assert jnp.allclose(precond @ precond_proc_noice_chol, non_precond_proc_noice_chol)


# Tests for the preconditioner


def test_preconditioner_1d(dt, iwp):
    n = iwp.num_derivatives + 1
    p_1d, p_inv_1d = iwp.nordsieck_preconditioner_1d(dt)
    assert p_1d.shape == (n, n)
    assert p_inv_1d.shape == (n, n)
    assert jnp.allclose(p_1d @ p_inv_1d, jnp.eye(n))
    assert jnp.allclose(p_inv_1d @ p_1d, jnp.eye(n))


def test_preconditioner(dt, iwp):
    n = iwp.num_derivatives + 1
    d = iwp.wiener_process_dimension
    p, p_inv = iwp.nordsieck_preconditioner(dt)
    assert p.shape == (d * n, d * n)
    assert p_inv.shape == (d * n, d * n)
    assert jnp.allclose(p @ p_inv, jnp.eye(d * n))
    assert jnp.allclose(p_inv @ p, jnp.eye(d * n))


def test_preconditioner_1d_raw(dt, iwp):
    n = iwp.num_derivatives + 1
    p_1d_raw, p_inv_1d_raw = iwp.nordsieck_preconditioner_1d_raw(dt)
    assert p_1d_raw.shape == (n,)
    assert p_inv_1d_raw.shape == (n,)
    assert jnp.allclose(p_1d_raw * p_inv_1d_raw, jnp.ones(n))
    assert jnp.allclose(p_inv_1d_raw * p_1d_raw, jnp.ones(n))


# ---- scaffolding: the fixtures (iwp with d=1, nu=2; dt=0.1) and two more step sizes, tests called by hand ----
calls = 0  # scaffolding
try:  # scaffolding
    iwp = IntegratedWienerTransition(wiener_process_dimension=1, num_derivatives=2)  # scaffolding: fixture iwp()
    for dt in (0.1, 0.05, 0.2):  # scaffolding: fixture dt() and two more step sizes
        test_preconditioned_system_matrices(dt, iwp)  # scaffolding
        test_preconditioner(dt, iwp)  # scaffolding
        calls += 2  # scaffolding: two top-level calls of iwp.nordsieck_preconditioner per step size
    _report({"jit(nordsieck_preconditioner)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
