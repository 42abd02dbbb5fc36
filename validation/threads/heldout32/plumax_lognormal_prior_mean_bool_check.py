# source: https://github.com/jejjohnson/plumax/commit/2eb0fbf4cdd55b0a931fec80097eb77193680064
# expect: trace-time-error at line 134
# runtime: ERROR TracerBoolConversionError
# why: lognormal_inversion validates the prior mean with `if bool(jnp.any(qa <= 0.0))`; jitting over prior_mean (a prior-mean sweep) makes qa a tracer and the bool() raises TracerBoolConversionError.

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


from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np  # scaffolding

def matern32_covariance(
    coordinates: jax.Array,
    *,
    variance: float,
    length_scale: float,
) -> jax.Array:
    """Build a Matérn-3/2 prior covariance over grid-cell coordinates."""
    if variance <= 0.0:
        raise ValueError("matern32_covariance: `variance` must be > 0.")
    if length_scale <= 0.0:
        raise ValueError("matern32_covariance: `length_scale` must be > 0.")
    coords = jnp.asarray(coordinates, dtype=float)
    if coords.ndim == 1:
        coords = coords[:, None]
    diff = coords[:, None, :] - coords[None, :, :]
    r = jnp.sqrt(jnp.sum(diff**2, axis=-1) + 1e-300)
    scaled = jnp.sqrt(3.0) * r / length_scale
    return variance * (1.0 + scaled) * jnp.exp(-scaled)


def observation_covariance(
    retrieval_variance: jax.Array,
    *,
    representation_variance: float | jax.Array = 0.0,
) -> jax.Array:
    """Assemble the diagonal observation-error covariance ``R``."""
    retr = jnp.asarray(retrieval_variance, dtype=float)
    if jnp.ndim(retr) != 1:
        raise ValueError("observation_covariance: `retrieval_variance` must be 1-D.")
    repr_ = jnp.asarray(representation_variance, dtype=float)
    return retr + repr_


def _blue_update(
    jacobian: jax.Array,
    innovation: jax.Array,
    prior_cov: jax.Array,
    obs_var: jax.Array,
) -> tuple[jax.Array, jax.Array]:
    bft = prior_cov @ jacobian.T  # B Fᵀ, (n_grid, n_obs)
    s = jacobian @ bft  # F B Fᵀ, (n_obs, n_obs)
    s = s + jnp.diag(obs_var)  # + R
    # Symmetrise to kill round-off asymmetry before the Cholesky solve.
    s = 0.5 * (s + s.T)
    chol = jax.scipy.linalg.cho_factor(s, lower=True)
    gain_t = jax.scipy.linalg.cho_solve(chol, bft.T)  # (F B Fᵀ + R)⁻¹ F B
    increment = bft @ jax.scipy.linalg.cho_solve(chol, innovation)
    posterior_cov = prior_cov - bft @ gain_t
    posterior_cov = 0.5 * (posterior_cov + posterior_cov.T)
    return increment, posterior_cov


@dataclass(frozen=True)
class GaussianPosterior:
    mean: jax.Array
    covariance: jax.Array


def linear_gaussian_inversion(
    footprint: jax.Array,
    observation: jax.Array,
    *,
    prior_mean: jax.Array,
    prior_cov: jax.Array,
    obs_variance: jax.Array,
) -> GaussianPosterior:
    """Closed-form Gaussian–Gaussian (BLUE) inversion of the source vector."""
    f = jnp.asarray(footprint, dtype=float)
    y = jnp.asarray(observation, dtype=float)
    qa = jnp.asarray(prior_mean, dtype=float)
    b = jnp.asarray(prior_cov, dtype=float)
    r = jnp.asarray(obs_variance, dtype=float)
    _check_inversion_shapes(f, y, qa, b, r)
    innovation = y - f @ qa
    increment, posterior_cov = _blue_update(f, innovation, b, r)
    return GaussianPosterior(mean=qa + increment, covariance=posterior_cov)


@dataclass(frozen=True)
class LognormalPosterior:
    mean: jax.Array
    log_increment: jax.Array
    log_covariance: jax.Array


def lognormal_inversion(
    footprint: jax.Array,
    observation: jax.Array,
    *,
    prior_mean: jax.Array,
    prior_log_cov: jax.Array,
    obs_variance: jax.Array,
) -> LognormalPosterior:
    """Sign-constrained inversion via a lognormal prior linearised in log-space."""
    f = jnp.asarray(footprint, dtype=float)
    y = jnp.asarray(observation, dtype=float)
    qa = jnp.asarray(prior_mean, dtype=float)
    b_log = jnp.asarray(prior_log_cov, dtype=float)
    r = jnp.asarray(obs_variance, dtype=float)
    _check_inversion_shapes(f, y, qa, b_log, r)
    if bool(jnp.any(qa <= 0.0)):
        raise ValueError("lognormal_inversion: `prior_mean` (q_a) must be > 0.")

    jac_tilde = f * qa[None, :]  # F̃ = F diag(q_a), (n_obs, n_grid)
    innovation = y - f @ qa
    log_increment, log_cov = _blue_update(jac_tilde, innovation, b_log, r)
    mean = qa * jnp.exp(log_increment)
    return LognormalPosterior(
        mean=mean, log_increment=log_increment, log_covariance=log_cov
    )


def _check_inversion_shapes(
    footprint: jax.Array,
    observation: jax.Array,
    prior_mean: jax.Array,
    prior_cov: jax.Array,
    obs_variance: jax.Array,
) -> None:
    if footprint.ndim != 2:
        raise ValueError("inversion: `footprint` must be 2-D (n_obs, n_grid).")
    n_obs, n_grid = footprint.shape
    if observation.shape != (n_obs,):
        raise ValueError(
            f"inversion: `observation` must have shape ({n_obs},), "
            f"got {observation.shape}."
        )
    if prior_mean.shape != (n_grid,):
        raise ValueError(
            f"inversion: `prior_mean` must have shape ({n_grid},), "
            f"got {prior_mean.shape}."
        )
    if prior_cov.shape != (n_grid, n_grid):
        raise ValueError(
            f"inversion: prior covariance must have shape ({n_grid}, {n_grid}), "
            f"got {prior_cov.shape}."
        )
    if obs_variance.shape != (n_obs,):
        raise ValueError(
            f"inversion: `obs_variance` must have shape ({n_obs},), "
            f"got {obs_variance.shape}."
        )


# --- tests/lagrangian/test_inversion.py ---
def _toy_problem(n_grid=8, n_obs=12, seed=0):
    rng = np.random.default_rng(seed)
    coords = np.linspace(0.0, 1000.0, n_grid)
    f = rng.uniform(0.0, 1.0, size=(n_obs, n_grid))
    q_true = rng.uniform(0.5, 2.0, size=n_grid)
    return coords, f, q_true


def test_lognormal_inversion_is_jittable_over_prior_mean():
    coords, f, _ = _toy_problem()
    n_obs, n_grid = f.shape
    b_log = matern32_covariance(coords, variance=0.25, length_scale=300.0)
    r = observation_covariance(np.full(n_obs, 1e-3))
    fj = jnp.asarray(f)

    @jax.jit
    def mean_of(qa):
        y = fj @ qa
        return lognormal_inversion(
            fj, y, prior_mean=qa, prior_log_cov=b_log, obs_variance=r
        ).mean

    for scale in [1.2, 1.5, 0.8]:  # scaffolding: a prior-mean sweep
        out = mean_of(jnp.full(n_grid, scale))
        assert out.shape == (n_grid,)
        assert np.all(np.asarray(out) > 0.0)


try:  # scaffolding
    test_lognormal_inversion_is_jittable_over_prior_mean()
    _report({"jit(mean_of)"}, 3)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
