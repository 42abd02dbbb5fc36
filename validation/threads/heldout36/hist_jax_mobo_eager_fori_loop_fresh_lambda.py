# source: https://github.com/wzh-miasanmia/jax_mobo/commit/ac7970e1395c5d7110b0d5d2fe758d233bbabc59
# expect: jit-in-loop-or-body at line 109
# runtime: COMPILES 4 CALLS 4
# why: The commit hoists grad_fun = jit(grad(mll)) to module level, but optimize_mll now runs an eager lax.fori_loop whose body is a fresh lambda over a fresh train_step closure on every call; outside jit the loop is compiled as jit(scan) and the new body misses the cache, so each fit still compiles once.

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
from collections import namedtuple
from jax import grad, jit, tree_util, vmap, lax
from jax.scipy.linalg import cholesky, solve_triangular
from jax.lax import fori_loop
from typing import Tuple
from functools import partial

GP_parameters = namedtuple("GP_parameters", [ "lengthscale", "amplitude"])

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


def softplus(x):
    return jnp.logaddexp(x, 0.0)

def mll(params, X_train, Y_train, noise):
    ls,amp = tree_util.tree_map(softplus, params)
    K = kernel_jit(X_train, X_train, l=ls, sigma_f=amp) + \
        noise**2 * jnp.eye(len(X_train))
    L = cholesky(K)
    S1 = solve_triangular(L, Y_train, lower=True)
    S2 = solve_triangular(L.T, S1, lower=False)
    mll =  jnp.sum(jnp.log(jnp.diag(L))) + \
            0.5 * jnp.dot(Y_train, S2) + \
            0.5 * len(X_train) * jnp.log(2*jnp.pi)
    return mll

grad_fun = jit(grad(mll))

def optimize_mll(
    params,
    X_train:jax.Array, 
    Y_train:jax.Array, 
    momentums,
    scales,
    noise, 
    num_steps: int = 20, 
    lr: float = 0.01,
):

    Y_train = Y_train.ravel()

    def train_step(
        params, momentums, scales,
    ):
        grads = grad_fun(params, X_train, Y_train, noise)
        momentums = tree_util.tree_map(
            lambda m, g: 0.9 * m + 0.1 * g, momentums, grads
        )
        scales = tree_util.tree_map(
            lambda s, g: 0.9 * s + 0.1 * g ** 2, scales, grads
        )
        params = tree_util.tree_map(
            lambda p, m, s: p - lr * m / jnp.sqrt(s + 1e-5),
            params,
            momentums,
            scales,
        )
        return params, momentums, scales

    params, momentums, scales = lax.fori_loop(
        0,
        num_steps,
        lambda _, v: train_step(*v),
        (params, momentums, scales),
    )

    return params, momentums, scales


# scaffolding: refit the GP hyperparameters for four objectives observed at the same 10 inputs
X_train = jax.random.uniform(jax.random.key(0), (10, 1))
n_fits = 4
for s in range(n_fits):
    Y_train = jnp.sin(3 * X_train) + 0.1 * s
    params = GP_parameters(jnp.ones(()), jnp.ones(()))
    zeros = tree_util.tree_map(jnp.zeros_like, params)
    params, momentums, scales = optimize_mll(params, X_train, Y_train, zeros, zeros, 0.1, 5, 0.01)
_report({"jit(scan)"}, n_fits)
