# source: https://github.com/RobertTLange/evosax/issues/2
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: RobertTLange's fix: instantiate the strategy and es_params = strategy.default_params outside the jitted function and pass es_params in; params_strategy runs eagerly and train compiles once for 2 calls.
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
import jax
import jax.numpy as jnp
import chex


class Strategy:  # scaffolding: the parts of evosax.strategy.Strategy used here
    def __init__(self, num_dims: int, popsize: int):
        """Base Class for an Evolution Strategy."""
        self.num_dims = num_dims
        self.popsize = popsize

    @property
    def default_params(self) -> chex.ArrayTree:
        """Return default parameters of evolution strategy."""
        params = self.params_strategy
        # Add shared parameter clipping and archive init params
        params["clip_min"] = -jnp.finfo(jnp.float32).max
        params["clip_max"] = jnp.finfo(jnp.float32).max
        params["init_min"] = -2
        params["init_max"] = 2
        return params


class CMA_ES(Strategy):
    def __init__(self, num_dims: int, popsize: int, elite_ratio: float = 0.5):
        super().__init__(num_dims, popsize)
        assert 0 <= elite_ratio <= 1
        self.elite_ratio = elite_ratio
        self.elite_popsize = int(self.popsize * self.elite_ratio)

    @property
    def params_strategy(self) -> chex.ArrayTree:
        """Return default parameters of evolution strategy."""
        weights_prime = jnp.array(
            [
                jnp.log((self.popsize + 1) / 2) - jnp.log(i + 1)
                for i in range(self.popsize)
            ]
        )
        mu_eff = (jnp.sum(weights_prime[: self.elite_popsize]) ** 2) / jnp.sum(
            weights_prime[: self.elite_popsize] ** 2
        )
        mu_eff_minus = (
            jnp.sum(weights_prime[self.elite_popsize :]) ** 2
        ) / jnp.sum(weights_prime[self.elite_popsize :] ** 2)

        # lrates for rank-one and rank-μ C updates
        alpha_cov = 2
        c_1 = alpha_cov / ((self.num_dims + 1.3) ** 2 + mu_eff)
        c_mu = jnp.minimum(
            1 - c_1 - 1e-8,
            alpha_cov
            * (mu_eff - 2 + 1 / mu_eff)
            / ((self.num_dims + 2) ** 2 + alpha_cov * mu_eff / 2),
        )
        min_alpha = min(
            1 + c_1 / c_mu,
            1 + (2 * mu_eff_minus) / (mu_eff + 2),
            (1 - c_1 - c_mu) / (self.num_dims * c_mu),
        )
        positive_sum = jnp.sum(weights_prime[weights_prime > 0])
        negative_sum = jnp.sum(jnp.abs(weights_prime[weights_prime < 0]))
        weights = jnp.where(
            weights_prime >= 0,
            1 / positive_sum * weights_prime,
            min_alpha / negative_sum * weights_prime,
        )
        weights_truncated = weights.at[self.elite_popsize :].set(0)  # jax.ops.index_update(weights, jax.ops.index[self.elite_popsize :], 0) in 2022 (removed from jax)

        params = {
            "mu_eff": mu_eff,
            "c_1": c_1,
            "c_mu": c_mu,
            "c_m": 1,
            "sigma_init": 1,
            "weights": weights,
            "weights_truncated": weights_truncated,
        }  # scaffolding: c_sigma, d_sigma, c_c and chi_n left out
        return params


def fitness_fn(x):  # scaffolding: a quadratic problem
    return jnp.sum((x - 1.0) ** 2, axis=-1)  # scaffolding


def make_step(strategy, es_params):  # scaffolding: a simplified ask/tell with the CMA-ES recombination weights
    def step(mean, rng):  # scaffolding
        x = mean + es_params["sigma_init"] * jax.random.normal(rng, (strategy.popsize, strategy.num_dims))  # scaffolding
        order = jnp.argsort(fitness_fn(x))  # scaffolding
        mean = jnp.sum(es_params["weights_truncated"][:, None] * x[order], axis=0)  # scaffolding
        return mean, fitness_fn(mean)  # scaffolding
    return step  # scaffolding


strategy = CMA_ES(popsize=20, num_dims=1, elite_ratio=0.5)
es_params = strategy.default_params


@jax.jit  # scaffolding: the same training loop, with the strategy and its parameters built outside jit
def train(rng, es_params):
    rngs = jax.random.split(rng, 50)  # scaffolding
    mean, fitness = jax.lax.scan(make_step(strategy, es_params), jnp.zeros(1), rngs)  # scaffolding
    return mean, fitness  # scaffolding


for seed in range(2):  # scaffolding
    mean, fitness = train(jax.random.PRNGKey(seed), es_params)  # scaffolding
print("final mean:", mean)  # scaffolding
_report({"jit(train)"}, 2)  # scaffolding
