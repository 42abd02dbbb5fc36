# source: https://github.com/alonfnt/bayex/pull/14
# expect: none
# runtime: COMPILES 2 CALLS 6
# why: round_vars carries its own @jit but is only called inside the jitted predict and grad_fun (and on fixed shapes), so it is inlined into each outer compile: one compile each for predict and grad_fun over three calls.
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
# Based on the Gaussian regression example in
# https://github.com/google/jax/blob/main/examples/gaussian_process_regression.py
from collections import namedtuple
from functools import partial
from typing import Any, Callable, Tuple

import jax
import jax.numpy as jnp
import jax.scipy as scipy
from jax import grad, jit, lax, vmap

Array = jnp.ndarray  # scaffolding: from .types import Array

GParameters = namedtuple("GParameters", ["noise", "amplitude", "lengthscale"])
DataTypes = namedtuple("DataTypes", ["integers"])


def cov_map(cov_func: Callable, xs: Array, xs2: Array = None) -> Array:
    """
    Computes the covariance matrix of the given function with the
    given points.
    """
    if xs2 is None:
        return vmap(lambda x: vmap(lambda y: cov_func(x, y))(xs))(xs)
    else:
        return vmap(lambda x: vmap(lambda y: cov_func(x, y))(xs))(xs2).T


def softplus(x: Array) -> Array:
    return jnp.logaddexp(x, 0.0)


def exp_quadratic(x1: Array, x2: Array, ls: Array) -> Array:
    return jnp.exp(-jnp.sum((x1 - x2) ** 2 / ls ** 2))


@jit
def round_vars(arr: Array, indexes: list) -> Array:
    """
    The input variables corresponding to an integer-valued input variable are
    rounded to the closest integer value.
    """
    for idx in indexes:
        arr = arr.at[:, idx].set(jnp.round(arr[:, idx]))  # scaffolding: jax.ops.index_update was removed from JAX
    return arr


def gp(
    params: GParameters,
    x: Array,
    y: Array,
    dtypes: DataTypes,
    xt: Array = None,
    compute_ml: bool = False,
) -> Any:
    """
    Gaussian Processor Main function.
    It is used as the based for the trainig of the GP, as well
    as the computing of marginal likelihood and prediction.

    Parameters:
    -----------
    params: Hyperparameters of the GP.
    x: Sampled points.
    y: Target values of the sampled points.
    xt: Points on which to predict.
    compute_ml: Flag indicating whether return the marginal
                distribution or continue with the predictions.

    Returns:
    --------
    The mean and standard deviations of the resulting
    Gaussian Distributions.
    """
    n = x.shape[0]
    x = round_vars(x, dtypes.integers)
    noise, amp, ls = jax.tree_util.tree_map(softplus, params)  # scaffolding: jax.tree_map was removed from JAX
    kernel = partial(exp_quadratic, ls=ls)

    ymean = jnp.mean(y)
    y = y - ymean
    train_cov = amp * cov_map(kernel, x) + jnp.eye(n) * (noise + 1e-6)
    chol = scipy.linalg.cholesky(train_cov, lower=True)
    kinvy = scipy.linalg.solve_triangular(
        chol.T, scipy.linalg.solve_triangular(chol, y, lower=True)
    )
    if compute_ml:
        log2pi = jnp.log(2.0 * jnp.pi)
        ml = jnp.sum(
            -0.5 * jnp.dot(y.T, kinvy)
            - jnp.sum(jnp.log(jnp.diag(chol)))
            - (n / 2.0) * log2pi
        )
        ml -= jnp.sum(-0.5 * jnp.log(2 * 3.1415) - jnp.log(amp) ** 2)
        return -ml

    if xt is not None:
        xt = round_vars(xt, dtypes.integers)

    cross_cov = amp * cov_map(kernel, x, xt)
    mu = jnp.dot(cross_cov.T, kinvy) + ymean
    v = scipy.linalg.solve_triangular(chol, cross_cov, lower=True)
    var = amp * cov_map(kernel, xt) - jnp.dot(v.T, v)

    if n > 1:
        var = jnp.diag(var)

    std = jnp.sqrt(var)
    return mu, std


marginal_likelihood = partial(gp, compute_ml=True)
predict = jit(partial(gp, compute_ml=False))
grad_fun = jit(grad(marginal_likelihood))


# scaffolding: a mixed-integer problem (column 1 integer-valued); predict on a fixed grid
# three times with refreshed observations of the same size, as a BO step would
key = jax.random.PRNGKey(0)
dtypes = DataTypes(integers=[1])
params = GParameters(noise=jnp.array(0.1), amplitude=jnp.array(1.0), lengthscale=jnp.array([1.0, 1.0]))
domain = jnp.stack(jnp.meshgrid(jnp.linspace(-2, 2, 7), jnp.linspace(0, 4, 7)), -1).reshape(-1, 2)
for i in range(3):
    key, k1 = jax.random.split(key)
    X = jax.random.uniform(k1, (6, 2), minval=-2.0, maxval=4.0)
    y = jnp.sin(X[:, 0]) + 0.1 * X[:, 1]
    mu, std = predict(params, X, y, dtypes, xt=domain)
    g = grad_fun(params, X, y, dtypes=dtypes)
_report({"jit(gp)", "jit(round_vars)"}, 6)  # scaffolding: three predict and three grad_fun calls
