# source: https://github.com/paolodelia99/jaxfin/issues/4
# expect: trace-time-error at line 108
# runtime: ERROR TypeError
# why: n_sim is passed to the jitted _simulate_Xt as an ordinary (traced) argument, so jnp.ones(n_sim) gets a traced shape and raises TypeError on the first sample_paths call.
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


"""Geometric Brownian Motion class implementation"""
from typing import List, Optional, Union

import jax
import jax.numpy as jnp
from jax import jit, random


class UnivGeometricBrownianMotion:
    """
    Geometric Brownian Motion

    Represent a 1-dimensional GBM

    # Example usage:
    s0 = jnp.array([100], dtype=jnp.float32)
    mean = jnp.array([0.1], dtype=jnp.float32)
    sigma = jnp.array([0.3], dtype=jnp.float32)

    gbm_process = UnivGeometricBrownianMotion(s0, mean, sigma, dtype=jnp.float32)
    paths = gbm_process.simulate_paths(maturity=1.0, n=100, n_sim=100)
    """

    def __init__(
        self,
        s0: Union[jax.Array, float],
        mean: Union[jax.Array, float],
        sigma: Union[jax.Array, float],
        dtype: Optional[jax.numpy.dtype] = jnp.float32,
    ):
        """GBM constructor"""
        if dtype is None:
            raise ValueError("dtype must not be None")

        self._dtype = dtype
        self._s0 = jnp.asarray(s0, dtype=dtype)
        self._mean = jnp.asarray(mean, dtype=dtype)
        self._sigma = jnp.asarray(sigma, dtype=dtype)

    @property
    def mean(self) -> jax.Array:
        return self._mean

    @property
    def sigma(self) -> jax.Array:
        return self._sigma

    @property
    def s0(self) -> jax.Array:
        return self._s0

    @property
    def dtype(self) -> jax.numpy.dtype:
        return self._dtype

    def sample_paths(self, seed: int, maturity: float, n: int, n_sim: int) -> jax.Array:
        """
        Simulate a sample of paths from the Geometric Brownian Motion (GBM).

        Args:
            maturity (float): Time in years.
            n (int): Number of steps.
            n_sim (int): Number of simulations.

        Returns:
            jax.Array: Array containing the sample paths.
        """
        key = random.PRNGKey(seed)

        dt = maturity / n

        W = random.normal(key, shape=(n_sim, n - 1)).T

        return _simulate_Xt(self._s0, self._mean, self._sigma, dt, n_sim, W)

@jit
def _simulate_Xt(s0: jax.Array, mean: jax.Array, sigma: jax.Array, dt: float, n_sim: int, W: jax.Array) -> jax.Array:
    Xt = jnp.exp(
            (mean - sigma**2 / 2) * dt
            + sigma * jnp.sqrt(dt) * W)
        
    Xt = jnp.vstack([jnp.ones(n_sim), Xt])

    return s0 * Xt.cumprod(axis=0)


s0 = jnp.array([100], dtype=jnp.float32)  # scaffolding: the class docstring's example
mean = jnp.array([0.1], dtype=jnp.float32)  # scaffolding
sigma = jnp.array([0.3], dtype=jnp.float32)  # scaffolding
gbm_process = UnivGeometricBrownianMotion(s0, mean, sigma, dtype=jnp.float32)  # scaffolding
try:  # scaffolding
    for seed in range(3):  # scaffolding
        paths = gbm_process.sample_paths(seed, maturity=1.0, n=100, n_sim=100)  # scaffolding
    _report({"jit(_simulate_Xt)"}, 3)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
