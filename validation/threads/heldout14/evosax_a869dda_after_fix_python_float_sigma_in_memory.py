# source: https://github.com/RobertTLange/evosax/commit/a869dda50ff910378192aab47de2d250396995e6
# expect: shape-churn at line 74
# runtime: COMPILES 4 CALLS 4
# why: After the commit's fix (ask unjitted around a sample jitted on static n_dim/pop_size, tell jitted with params as a pytree) the dict error is gone, but memory starts with sigma as the Python float the user passed, a weak-typed scalar, while tell returns a strongly typed float32 sigma, so sample and tell each retrace once on the second generation.

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
import functools
import jax.numpy as jnp
from jax import jit


def init_strategy(mean_init, sigma, population_size, mu, split_params=False):
    ''' Initialize evolutionary strategy & learning rates. '''
    n_dim = mean_init.shape[0]
    weights_prime = jnp.array(
        [jnp.log((population_size + 1) / 2) - jnp.log(i + 1)
         for i in range(population_size)])
    mu_eff = ((jnp.sum(weights_prime[:mu]) ** 2) /
               jnp.sum(weights_prime[:mu] ** 2))
    mu_eff_minus = ((jnp.sum(weights_prime[mu:]) ** 2) /
                     jnp.sum(weights_prime[mu:] ** 2))

    # lrates for rank-one and rank-μ C updates
    alpha_cov = 2
    c_1 = alpha_cov / ((n_dim + 1.3) ** 2 + mu_eff)
    c_mu = jnp.minimum(1 - c_1 - 1e-8, alpha_cov * (mu_eff - 2 + 1 / mu_eff)
              / ((n_dim + 2) ** 2 + alpha_cov * mu_eff / 2))
    min_alpha = min(1 + c_1 / c_mu,
                    1 + (2 * mu_eff_minus) / (mu_eff + 2),
                    (1 - c_1 - c_mu) / (n_dim * c_mu))
    positive_sum = jnp.sum(weights_prime[weights_prime > 0])
    negative_sum = jnp.sum(jnp.abs(weights_prime[weights_prime < 0]))
    weights = jnp.where(weights_prime >= 0,
                       1 / positive_sum * weights_prime,
                       min_alpha / negative_sum * weights_prime,)
    weights_truncated = weights.at[mu:].set(0)  # scaffolding: jax.ops.index_update was removed from JAX
    c_m = 1

    # lrate for cumulation of step-size control and rank-one update
    c_sigma = (mu_eff + 2) / (n_dim + mu_eff + 5)
    d_sigma = 1 + 2 * jnp.maximum(0, jnp.sqrt((mu_eff - 1) / (n_dim + 1)) - 1) + c_sigma
    c_c = (4 + mu_eff / n_dim) / (n_dim + 4 + 2 * mu_eff / n_dim)
    chi_n = jnp.sqrt(n_dim) * (
        1.0 - (1.0 / (4.0 * n_dim)) + 1.0 / (21.0 * (n_dim ** 2)))

    # Initialize evolution paths & covariance matrix
    p_sigma = jnp.zeros(n_dim)
    p_c = jnp.zeros(n_dim)
    C, D, B = jnp.eye(n_dim), None, None

    memory = {"p_sigma": p_sigma, "p_c": p_c, "sigma": sigma,
              "mean": mean_init, "C": C, "D": D, "B": B,
              "generation": 0}

    # Decide whether to split params in static and dynamic hyperparams
    if not split_params:
        params = {"mu_eff": mu_eff,
                  "c_1": c_1, "c_mu": c_mu, "c_m": c_m,
                  "c_sigma": c_sigma, "d_sigma": d_sigma,
                  "c_c": c_c, "chi_n": chi_n,
                  "weights": weights,
                  "weights_truncated": weights_truncated,
                  "pop_size": population_size,
                  "n_dim": n_dim,
                  "tol_x": 1e-12 * sigma,
                  "tol_x_up": 1e4,
                  "tol_fun": 1e-12,
                  "tol_condition_C": 1e14,
                  "min_generations": 10}
        return params, memory
    else:
        ask_params = {"pop_size": population_size,
                      "n_dim": n_dim}
        tell_params = {"mu_eff": mu_eff,
                       "c_1": c_1, "c_mu": c_mu, "c_m": c_m,
                       "c_sigma": c_sigma, "d_sigma": d_sigma,
                       "c_c": c_c, "chi_n": chi_n,
                       "weights": weights,
                       "weights_truncated": weights_truncated}
        terminal_params = {"tol_x": 1e-12 * sigma,
                           "tol_x_up": 1e4,
                           "tol_fun": 1e-12,
                           "tol_condition_C": 1e14,
                           "min_generations": 10}
        return ask_params, tell_params, terminal_params, memory


def ask_cma_strategy(rng, memory, params):
    """ Propose parameters to evaluate next. """
    C, B, D = eigen_decomposition(memory["C"], memory["B"], memory["D"])
    x = sample(rng, memory, B, D, params["n_dim"], params["pop_size"])
    memory["C"], memory["B"], memory["D"] = C, B, D
    return x, memory


@functools.partial(jax.jit, static_argnums=(4, 5))
def sample(rng, memory, B, D, n_dim, pop_size):
    z = jax.random.normal(rng, (n_dim, pop_size)) # ~ N(0, I)
    y = B.dot(jnp.diag(D)).dot(z)               # ~ N(0, C)
    y = jnp.swapaxes(y, 1, 0)
    x = memory["mean"] + memory["sigma"] * y    # ~ N(m, σ^2 C)
    return x


@jax.jit
def eigen_decomposition(C, B, D):
    """ Perform eigendecomposition of covariance matrix. """
    if B is not None and D is not None:
        return C, B, D
    C = (C + C.T) / 2
    D2, B = jnp.linalg.eigh(C)
    D = jnp.sqrt(jnp.where(D2 < 0, 1e-20, D2))
    C = jnp.dot(jnp.dot(B, jnp.diag(D ** 2)), B.T)
    return C, B, D


def tell_cma_strategy(x, fitness, params, memory):
    """ Update the surrogate ES model. """
    memory["generation"] = memory["generation"] + 1
    # Sort new results, extract elite, store best performer
    concat_p_f = jnp.hstack([jnp.expand_dims(fitness, 1), x])
    sorted_solutions = concat_p_f[concat_p_f[:, 0].argsort()]
    # Update mean, isotropic/anisotropic paths, covariance, stepsize
    y_k, y_w, mean = update_mean(sorted_solutions, params, memory)
    memory["mean"] = mean
    p_sigma, C_2, C, B, D = update_p_sigma(y_w, params, memory)
    memory["p_sigma"], memory["C"], memory["B"], memory["D"] = p_sigma, C, B, D
    p_c, norm_p_sigma, h_sigma = update_p_c(y_w, params, memory)
    memory["p_c"] = p_c
    C = update_covariance(y_k, h_sigma, C_2, params, memory)
    memory["C"] = C
    sigma = update_sigma(norm_p_sigma, params, memory)
    memory["sigma"] = sigma
    return memory


# Jitted version of CMA-ES ask and tell interface
# Only static args for ask - pop_size, num_params
ask = ask_cma_strategy
tell = jit(tell_cma_strategy)


def update_mean(sorted_solutions, params, memory):
    """ Update mean of strategy. """
    x_k = sorted_solutions[:, 1:]  # ~ N(m, σ^2 C)
    y_k = (x_k - memory["mean"]) / memory["sigma"]  # ~ N(0, C)
    y_w = jnp.sum(y_k.T * params["weights_truncated"], axis=1)
    mean = memory["mean"] + params["c_m"] * memory["sigma"] * y_w
    return y_k, y_w, mean


def update_p_sigma(y_w, params, memory):
    """ Update evolution path for covariance matrix. """
    C, B, D = eigen_decomposition(memory["C"], memory["B"], memory["D"])
    C_2 = B.dot(jnp.diag(1 / D)).dot(B.T)  # C^(-1/2) = B D^(-1) B^T
    p_sigma_new = (1 - params["c_sigma"]) * memory["p_sigma"] + jnp.sqrt(
        params["c_sigma"] * (2 - params["c_sigma"]) *
        params["mu_eff"]) * C_2.dot(y_w)
    _B, _D = None, None
    return p_sigma_new, C_2, C, _B, _D


def update_p_c(y_w, params, memory):
    """ Update evolution path for sigma/stepsize. """
    norm_p_sigma = jnp.linalg.norm(memory["p_sigma"])
    h_sigma_cond_left = norm_p_sigma / jnp.sqrt(
        1 - (1 - params["c_sigma"]) ** (2 * (memory["generation"] + 1)))
    h_sigma_cond_right = (1.4 + 2 / (memory["mean"].shape[0] + 1)) * params["chi_n"]
    h_sigma = 1.0 * (h_sigma_cond_left < h_sigma_cond_right)
    p_c = (1 - params["c_c"]) * memory["p_c"] + h_sigma * jnp.sqrt(
          params["c_c"] * (2 - params["c_c"]) * params["mu_eff"]) * y_w
    return p_c, norm_p_sigma, h_sigma


def update_covariance(y_k, h_sigma, C_2, params, memory):
    """ Update cov. matrix estimator using rank 1 + μ updates. """
    w_io = params["weights"] * jnp.where(params["weights"] >= 0, 1,
                                        memory["mean"].shape[0]/
            (jnp.linalg.norm(C_2.dot(y_k.T), axis=0) ** 2 + 1e-20))
    delta_h_sigma = (1 - h_sigma) * params["c_c"] * (2 - params["c_c"])
    rank_one = jnp.outer(memory["p_c"], memory["p_c"])
    rank_mu = jnp.sum(
        jnp.array([w * jnp.outer(y, y) for w, y in zip(w_io, y_k)]), axis=0)
    C = ((1 + params["c_1"] * delta_h_sigma - params["c_1"]
          - params["c_mu"] * jnp.sum(params["weights"])) * memory["C"]
         + params["c_1"] * rank_one + params["c_mu"] * rank_mu)
    return C


def update_sigma(norm_p_sigma, params, memory):
    """ Update stepsize sigma. """
    sigma = (memory["sigma"] * jnp.exp((params["c_sigma"] / params["d_sigma"])
                                      * (norm_p_sigma / params["chi_n"] - 1)))
    return sigma


# scaffolding: the README-style ask/evaluate/tell loop on a 2-D quadratic
rng = jax.random.PRNGKey(0)
params, memory = init_strategy(jnp.array([1.0, -1.0]), 0.5, 8, 4)
calls = 0
try:
    for generation in range(4):
        rng, rng_ask = jax.random.split(rng)
        x, memory = ask(rng_ask, memory, params)
        fitness = jnp.sum(x ** 2, axis=1)
        memory = tell(x, fitness, params, memory)
        calls += 1
    _report({"jit(sample)", "jit(tell_cma_strategy)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
