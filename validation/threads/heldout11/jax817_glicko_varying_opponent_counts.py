# source: https://github.com/jax-ml/jax/issues/817
# expect: shape-churn at line 141
# runtime: COMPILES 8 CALLS 67
# why: every player has a random number of opponents and of matches per opponent, so the jitted calculate_delta_sq and calculate_single_mu_update receive arrays of new lengths and recompile for each new shape (the maintainer: most time is spent recompiling for new argument shapes).

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
import jax.numpy as np
from jax import jit
from typing import List, Tuple


Q = np.log(10.) / 400.


@jit
def calculate_g(sigma_sq):
    """
    Calculates g as defined in the Glicko paper.
    """

    return 1. / np.sqrt(1 + (3 * Q**2 * sigma_sq / np.pi**2))


@jit
def calculate_e(theta: float, mu_j: np.ndarray,
                sigma_j_sq: np.ndarray) -> np.ndarray:
    """
    Calculates E, a quantity used in the Glicko approximations related to
    the win probability.
    """

    g = calculate_g(sigma_j_sq)

    return 1. / (1. + 10**(-g * (theta - mu_j) / 400.))


@jit
def calculate_delta_sq(n_j: np.ndarray, sigma_j_sq: np.ndarray, mu: float,
                       mu_j: np.ndarray) -> float:
    """
    Calculates the approximate variance of the likelihood.
    """

    win_exp = calculate_e(mu, mu_j, sigma_j_sq)
    win_exp_component = win_exp * (1 - win_exp)
    g = calculate_g(sigma_j_sq)
    sum_components = n_j * g**2 * win_exp_component
    summed = np.sum(sum_components)

    return 1. / (Q**2 * summed)


@jit
def calculate_single_mu_update(mu: float, opp_sigma_sq: float, s: np.ndarray,
                               opp_mu: float) -> float:
    """
    Helper function computing part of the update to mu for a single opponent.
    """

    g = calculate_g(opp_sigma_sq)

    return np.sum(g * (s - calculate_e(mu, opp_mu, opp_sigma_sq)))


def calculate_mu_prime(mu: float, sigma_sq: float, delta_sq: float,
                       s_jk: List[np.ndarray], mu_j: np.ndarray,
                       sigma_j_sq: np.ndarray) -> float:
    """Calculates a player's posterior mean given outcomes."""

    pre_factor = Q / ((1. / sigma_sq) + (1. / delta_sq))

    total_update = 0.

    # This is the pesky dynamic for loop
    for j in range(len(s_jk)):

        cur_s = s_jk[j]
        cur_opp_sigma_sq = sigma_j_sq[j]
        cur_opp_mu = mu_j[j]

        total_update = total_update + calculate_single_mu_update(
            mu, cur_opp_sigma_sq, cur_s, cur_opp_mu)

    total_update = total_update * pre_factor

    return mu + total_update


def calculate_approximate_likelihood(mu: float, sigma_sq: float,
                                     n_j: np.ndarray, mu_j: np.ndarray,
                                     sigma_j_sq: np.ndarray,
                                     s_jk: List[np.ndarray]) \
        -> Tuple[float, float]:
    """
    Calculates the approximate likelihood used in Glicko for one player.
    """

    delta_sq = calculate_delta_sq(n_j, sigma_j_sq, mu, mu_j)
    mu_prime = calculate_mu_prime(mu, sigma_sq, delta_sq, s_jk, mu_j,
                                  sigma_j_sq)

    gamma = sigma_sq / (sigma_sq + delta_sq)
    theta_hat = (1. / gamma) * (mu_prime - mu * (1 - gamma))

    return theta_hat, delta_sq


# --- Benchmark.ipynb (the reporter's driver); glicko_numba is not used here ---
import numpy  # scaffolding: the notebook's `np` is NumPy; glicko_jax.py's `np` is jax.numpy
numpy.random.seed(0)  # scaffolding


def generate_random_observations():

    # Draw a random number of opponents
    num_opponents = numpy.random.randint(1, 5)

    # Draw a random number of matches played against each opponent
    n_j = numpy.array([numpy.random.randint(1, 5) for x in range(num_opponents)])

    # Draw random mean for each opponent
    mu_j = numpy.array([numpy.random.normal(loc=1500., scale=50) for x in range(num_opponents)])

    # Draw random variances for each opponent
    sigma_j_sq = numpy.array([numpy.random.normal(loc=20, scale=5)**2 for x in range(num_opponents)])

    # Draw random outcomes (win/loss) for each opponent
    s_jk = [numpy.random.randint(low=0, high=2, size=x) for x in n_j]

    return n_j, mu_j, sigma_j_sq, s_jk


mu = numpy.array(1500.)
sigma_sq = numpy.array(100.**2)

calls = 0  # scaffolding
for i in range(20):  # scaffolding: 1000 in the notebook
    n_j, mu_j, sigma_j_sq, s_jk = generate_random_observations()
    calculate_approximate_likelihood(mu, sigma_sq, n_j, mu_j, sigma_j_sq, s_jk)
    calls += 1 + len(s_jk)  # scaffolding: one delta_sq call plus one mu update per opponent

_report({"jit(calculate_delta_sq)", "jit(calculate_single_mu_update)"}, calls)  # scaffolding
