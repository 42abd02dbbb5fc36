# source: https://github.com/GJBoth/modax/blob/c7e1c128d4dd48b776f8ec4fa724c2e4b6e13c82/src/modax/linear_model/bayesian_regression.py
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: bayesian_regression passes a fresh lambda (closing over tol) as the static cond_fun of the jitted fixed_point_solver, which itself passes another fresh lambda as static f to jitted fwd_solver; both happen inside the outer @jit, so they are retraced only when bayesian_regression is, and repeated same-shape calls compile once.

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


# %% Imports
import jax
from jax import jit, numpy as jnp, lax
from jax.lax import stop_gradient  # scaffolding: was from jax._src.lax.lax import stop_gradient
from functools import partial

@partial(jit, static_argnums=(0, 2))
def fwd_solver(f, z_init, cond_fun, max_iter=300):
    def _cond_fun(carry):
        z_prev, z, iteration = carry
        return jax.lax.cond(
            iteration >= max_iter,
            lambda _: False,
            lambda args: cond_fun(*args),
            (z_prev, z),
        )

    def body_fun(carry):
        _, z, iteration = carry
        return z, f(z), iteration + 1

    init_carry = (
        z_init,
        f(z_init),
        1,
    )
    _, z_star, metrics = lax.while_loop(_cond_fun, body_fun, init_carry)
    return z_star, metrics


# Custom backprop function for iterative methods
@partial(jax.custom_vjp, nondiff_argnums=(0, 3))
@partial(jit, static_argnums=(0, 3))
def fixed_point_solver(f, args, z_init, cond_fun, max_iter=300):
    z_star, metrics = fwd_solver(
        lambda z: f(z, *args), z_init, cond_fun, max_iter=max_iter,
    )
    return z_star, metrics


@partial(jit, static_argnums=(0, 3))
def fixed_point_solver_fwd(f, args, z_init, cond_fun, max_iter):
    z_star, metrics = fixed_point_solver(f, args, z_init, cond_fun, max_iter)
    return (z_star, metrics), (z_star, args)


@partial(jit, static_argnums=(0,))
def fixed_point_solver_bwd(f, res, z_star_bar):
    z_star, args = res
    z_star_bar = z_star_bar[0]  # we dont take the gradient w.r.t metric

    _, vjp_a = jax.vjp(lambda args: f(z_star, *args), args)
    _, vjp_z = jax.vjp(lambda z: f(z, *args), z_star)
    res = vjp_a(
        fwd_solver(
            lambda u: vjp_z(u)[0] + z_star_bar,
            jnp.zeros_like(z_star),
            lambda z_prev, z: jnp.linalg(z - z_prev) > 1e-5,
            max_iter=5000,
        )[0]
    )
    return (*res, None, None)  # None for init and max_iter


fixed_point_solver.defvjp(fixed_point_solver_fwd, fixed_point_solver_bwd)


@jit
def bayesian_regression(
    X,
    y,
    prior_init=None,
    hyper_prior=((1e-6, 1e-6), (1e-6, 1e-6)),
    tol=1e-5,
    max_iter=300,
):

    n_samples, n_features = X.shape
    # Prepping matrices
    XT_y = jnp.dot(X.T, y)
    _, S, Vh = jnp.linalg.svd(X, full_matrices=False)
    eigen_vals = S ** 2

    if prior_init is None:
        prior_init = jnp.ones((2,))
        prior_init = prior_init.at[1].set(1 / (jnp.var(y) + 1e-7))  # scaffolding: jax.ops.index_update was removed

    # Running
    prior_params, iterations = fixed_point_solver(
        update,
        (X, y, eigen_vals, Vh, XT_y, hyper_prior),
        prior_init,
        lambda z_prev, z: jnp.linalg.norm(z_prev[0] - z[0]) > tol,
        max_iter=max_iter,
    )

    prior = stop_gradient(prior_params)
    log_LL, mn = evidence(X, y, prior, eigen_vals, Vh, XT_y, hyper_prior)
    metrics = (iterations, 0.0)
    return log_LL, mn, prior, metrics


@jit
def update(prior, X, y, eigen_vals, Vh, XT_y, hyper_prior):

    n_samples, n_features = X.shape
    alpha, beta = prior[:-1], prior[-1]
    alpha_prior, beta_prior = hyper_prior
    # Calculating coeffs
    coeffs = jnp.linalg.multi_dot(
        [Vh.T, Vh / (eigen_vals + alpha / beta)[:, jnp.newaxis], XT_y]
    )
    gamma_ = jnp.sum((beta * eigen_vals) / (alpha + beta * eigen_vals))
    rmse_ = jnp.sum((y - jnp.dot(X, coeffs)) ** 2)

    # %% Update alpha and lambda according to (MacKay, 1992)
    alpha = (gamma_ + 2 * alpha_prior[0]) / (jnp.sum(coeffs ** 2) + 2 * alpha_prior[1])
    beta = (n_samples - gamma_ + 2 * beta_prior[0]) / (rmse_ + 2 * beta_prior[1])
    return jnp.stack([alpha, beta], axis=0)


@jit
def evidence(X, y, prior, eigen_vals, Vh, XT_y, hyper_prior):
    # compute the log of the determinant of the posterior covariance.
    # posterior covariance is given by
    alpha_prior, beta_prior = hyper_prior
    alpha, beta = prior[:-1], prior[-1]
    n_samples, n_features = X.shape
    coeffs = jnp.linalg.multi_dot(
        [Vh.T, Vh / (eigen_vals + alpha / beta)[:, jnp.newaxis], XT_y]
    )

    rmse = jnp.sum((y - jnp.dot(X, coeffs)) ** 2)
    logdet_sigma = -jnp.sum(jnp.log(alpha + beta * eigen_vals))

    score = alpha_prior[0] * jnp.log(alpha) - alpha_prior[1] * alpha
    score += beta_prior[0] * jnp.log(beta) - beta_prior[1] * beta
    score += 0.5 * (
        n_features * jnp.log(alpha)
        + n_samples * jnp.log(beta)
        - beta * rmse
        - alpha * jnp.sum(coeffs ** 2)
        + logdet_sigma
        - n_samples * jnp.log(2 * jnp.pi)
    )

    return score.squeeze(), coeffs


# scaffolding: the DeepMoD-style loss calls bayesian_regression once per training step with a new
# library matrix theta and time derivative dt of fixed shape, warm-started from the previous prior
key = jax.random.PRNGKey(0)
prior = jnp.ones((2,))
n_steps = 4
for step in range(n_steps):
    key, k1, k2 = jax.random.split(key, 3)
    theta = jax.random.normal(k1, (200, 12))
    dt = theta[:, :3] @ jnp.array([[0.5], [-1.0], [0.2]]) + 0.01 * jax.random.normal(k2, (200, 1))
    theta_normed = theta / jnp.linalg.norm(theta, axis=0)
    p_reg, mn, prior, fwd_metric = bayesian_regression(
        theta_normed,
        dt,
        prior_init=prior,
        hyper_prior=((1e-6, 1e-6), (100.0, 1.0)),
        tol=1e-3,
        max_iter=1000,
    )
_report({"jit(bayesian_regression)", "jit(fixed_point_solver)", "jit(fwd_solver)"}, n_steps)  # scaffolding
