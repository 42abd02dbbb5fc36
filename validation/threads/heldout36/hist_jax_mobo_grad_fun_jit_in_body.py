# source: https://github.com/wzh-miasanmia/jax_mobo/commit/ac7970e1395c5d7110b0d5d2fe758d233bbabc59
# expect: jit-in-loop-or-body at line 92
# runtime: COMPILES 4 CALLS 4
# why: optimize_mll defines the marginal-likelihood closure mll over X_train/Y_train and wraps it in jit(grad(mll)) on every call, so each hyperparameter fit re-traces and recompiles the gradient even for data of the same shape.

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
import jax
import jax.numpy as jnp
from jax import grad, jit, tree_util, vmap
from jax.scipy.linalg import cholesky, solve_triangular
from jax.lax import fori_loop
from typing import Tuple
from functools import partial



# Covariance matrix calculation
def kernel(X1:jax.Array, X2:jax.Array, l=1.0, sigma_f=1.0):
    """
    Isotropic squared exponential kernel.
    
    Args:
        X1: Array of m points (m x d).
        X2: Array of n points (n x d).

    Returns:
        (m x n) matrix.
    """
    sqdist = jnp.sum(X1**2, axis=1).reshape((-1, 1)) + jnp.sum(X2**2, axis=1) - 2 * jnp.dot(X1, X2.T)
    return sigma_f**2 * jnp.exp(-0.5 / l**2 * sqdist)

kernel_jit = jit(kernel)


def optimize_mll(initial_theta:jax.Array, X_train:jax.Array, Y_train:jax.Array, noise, num_steps, lr, method:str):
    """
    Optimize the negative log marginal likelihood for Gaussian Process Regression.

    Parameters:
    -----------
    initial_theta : jax.Array
        Initial values for the hyperparameters to be optimized.
    X_train : jax.Array
        Training locations (m x d).
    Y_train : jax.Array
        Training targets (m x 1).
    noise : float
        Known noise level of the training targets.
    num_steps : int
        Number of optimization steps to perform.
    lr : float
        Learning rate for the optimization.

    Returns:
    --------
    jax.Array
        Optimized hyperparameters that minimize the negative log marginal likelihood.
    """
    Y_train = Y_train.ravel()

    def mll(theta):
        K = kernel_jit(X_train, X_train, l=theta[0], sigma_f=theta[1]) + \
            noise**2 * jnp.eye(len(X_train))
        L = cholesky(K)
        S1 = solve_triangular(L, Y_train, lower=True)
        S2 = solve_triangular(L.T, S1, lower=False)
        return jnp.sum(jnp.log(jnp.diag(L))) + \
                0.5 * jnp.dot(Y_train, S2) + \
                0.5 * len(X_train) * jnp.log(2*jnp.pi)
    grad_fun = jit(grad(mll))

    theta = initial_theta
    momentums = jnp.zeros_like(theta)
    scales = jnp.zeros_like(theta)
    if method == 'SGD':
        for _ in range(num_steps):
            grads = grad_fun(theta)

            momentums = 0.9 * momentums + 0.1 * grads

            scales = 0.9 * scales + 0.1 * grads ** 2

            theta -= lr * momentums / jnp.sqrt(scales + 1e-5)

        return theta
    
    elif method == 'BFGS':
        return 'BFGS is not finish yet'
    else:
        return 'Please choose a method correctly'


# scaffolding: refit the GP hyperparameters for four objectives observed at the same 10 inputs
X_train = jax.random.uniform(jax.random.key(0), (10, 1))
n_fits = 4
for s in range(n_fits):
    Y_train = jnp.sin(3 * X_train) + 0.1 * s
    theta = optimize_mll(jnp.array([1.0, 1.0]), X_train, Y_train, 0.1, 5, 0.01, 'SGD')
_report({"jit(mll)"}, n_fits)
