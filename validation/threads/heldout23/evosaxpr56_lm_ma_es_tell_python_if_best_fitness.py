# source: https://github.com/RobertTLange/evosax/pull/56
# expect: trace-time-error at line 368
# runtime: ERROR TracerBoolConversionError
# why: tell_strategy runs inside the jitted Strategy.tell (static self) and does 'if state.best_fitness < sorted_solutions[0, 0]:' on traced values, so the first tell raises TracerBoolConversionError.
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
# RobertTLange/evosax PR #56 (commit 2381be7, the PR's LM_MA_ES as first reviewed): tell_strategy updates the best member with a Python if; Strategy.tell is jitted
from typing import Optional, Tuple, Union
from functools import partial
import jax
import jax.numpy as jnp
import chex
from flax import struct


class FitnessShaper:  # scaffolding: evosax.core.FitnessShaper with default settings (no reshaping, minimise)
    def __init__(self, **kwargs):  # scaffolding
        self.maximize = False  # scaffolding

    def apply(self, x, fitness):  # scaffolding
        return fitness  # scaffolding


def get_best_fitness_member(
    x: chex.Array, fitness: chex.Array, state, maximize: bool = False
) -> Tuple[chex.Array, float]:
    """Check if fitness improved & replace in ES state."""
    fitness_min = jax.lax.select(maximize, -1 * fitness, fitness)
    max_and_later = maximize and state.gen_counter > 0
    best_fit_min = jax.lax.select(
        max_and_later, -1 * state.best_fitness, state.best_fitness
    )
    best_in_gen = jnp.argmin(fitness_min)
    best_in_gen_fitness, best_in_gen_member = (
        fitness_min[best_in_gen],
        x[best_in_gen],
    )
    replace_best = best_in_gen_fitness < best_fit_min
    best_fitness = jax.lax.select(
        replace_best, best_in_gen_fitness, best_fit_min
    )
    best_member = jax.lax.select(
        replace_best, best_in_gen_member, state.best_member
    )
    best_fitness = jax.lax.select(maximize, -1 * best_fitness, best_fitness)
    return best_member, best_fitness


@struct.dataclass
class EvoState:
    p_sigma: chex.Array
    M: chex.Array
    mean: chex.Array
    sigma: float
    c_c: chex.Array
    c_d: chex.Array
    weights_truncated: chex.Array
    best_member: chex.Array
    z: chex.Array
    best_fitness: float = jnp.finfo(jnp.float32).max
    gen_counter: int = 0


@struct.dataclass
class EvoParams:
    c_sigma: float
    d_sigma: float
    mu_w: float
    c_m: float = 1.0
    sigma_init: float = 0.065
    init_min: float = 0.0
    init_max: float = 0.0
    clip_min: float = -jnp.finfo(jnp.float32).max
    clip_max: float = jnp.finfo(jnp.float32).max


class Strategy(object):
    def __init__(
        self,
        popsize: int,
        num_dims: Optional[int] = None,
        pholder_params: Optional[Union[chex.ArrayTree, chex.Array]] = None,
        mean_decay: float = 0.0,
        n_devices: Optional[int] = None,
        **fitness_kwargs: Union[bool, int, float]
    ):
        """Base Class for an Evolution Strategy."""
        self.popsize = popsize

        # Setup optional parameter reshaper
        self.use_param_reshaper = pholder_params is not None
        if self.use_param_reshaper:
            raise NotImplementedError  # scaffolding: ParameterReshaper not needed here
            self.num_dims = self.param_reshaper.total_params
        else:
            self.num_dims = num_dims
        assert (
            self.num_dims is not None
        ), "Provide either num_dims or pholder_params to strategy."

        # Mean exponential decay coefficient m' = coeff * m
        # Implements form of weight decay regularization
        self.mean_decay = mean_decay
        self.use_mean_decay = mean_decay > 0.0

        # Setup optional fitness shaper
        self.fitness_shaper = FitnessShaper(**fitness_kwargs)

    @property
    def default_params(self) -> EvoParams:
        """Return default parameters of evolution strategy."""
        params = self.params_strategy
        return params

    @partial(jax.jit, static_argnums=(0,))
    def initialize(
        self,
        rng: chex.PRNGKey,
        params: Optional[EvoParams] = None,
        init_mean: Optional[Union[chex.Array, chex.ArrayTree]] = None,
    ) -> EvoState:
        """`initialize` the evolution strategy."""
        # Use default hyperparameters if no other settings provided
        if params is None:
            params = self.default_params

        # Initialize strategy based on strategy-specific initialize method
        state = self.initialize_strategy(rng, params)

        if init_mean is not None:
            if self.use_param_reshaper:
                init_mean = self.param_reshaper.flatten_single(init_mean)
            else:
                init_mean = jnp.asarray(init_mean)
            state = state.replace(mean=init_mean)
        return state

    @partial(jax.jit, static_argnums=(0,))
    def ask(
        self,
        rng: chex.PRNGKey,
        state: EvoState,
        params: Optional[EvoParams] = None,
    ) -> Tuple[Union[chex.Array, chex.ArrayTree], EvoState]:
        """`ask` for new parameter candidates to evaluate next."""
        # Use default hyperparameters if no other settings provided
        if params is None:
            params = self.default_params

        # Generate proposal based on strategy-specific ask method
        x, state = self.ask_strategy(rng, state, params)
        # Clip proposal candidates into allowed range
        x_clipped = jnp.clip(x, params.clip_min, params.clip_max)

        # Reshape parameters into pytrees
        if self.use_param_reshaper:
            x_out = self.param_reshaper.reshape(x_clipped)
        else:
            x_out = x_clipped
        return x_out, state

    @partial(jax.jit, static_argnums=(0,))
    def tell(
        self,
        x: Union[chex.Array, chex.ArrayTree],
        fitness: chex.Array,
        state: EvoState,
        params: Optional[EvoParams] = None,
    ) -> chex.ArrayTree:
        """`tell` performance data for strategy state update."""
        # Use default hyperparameters if no other settings provided
        if params is None:
            params = self.default_params

        # Flatten params if using param reshaper for ES update
        if self.use_param_reshaper:
            x = self.param_reshaper.flatten(x)

        # Perform fitness reshaping inside of strategy tell call (if desired)
        fitness_re = self.fitness_shaper.apply(x, fitness)

        # Update the search state based on strategy-specific update
        state = self.tell_strategy(x, fitness_re, state, params)

        # Check if there is a new best member & update trackers
        best_member, best_fitness = get_best_fitness_member(
            x, fitness, state, self.fitness_shaper.maximize
        )

        # Exponentially decay mean if coefficient > 0.0
        if self.use_mean_decay:
            state = state.replace(mean=(1 - self.mean_decay) * state.mean)

        return state.replace(
            best_member=best_member,
            best_fitness=best_fitness,
            gen_counter=state.gen_counter + 1,
        )

    def initialize_strategy(
        self, rng: chex.PRNGKey, params: EvoParams
    ) -> EvoState:
        """Search-specific `initialize` method. Returns initial state."""
        raise NotImplementedError

    def ask_strategy(
        self, rng: chex.PRNGKey, state: EvoState, params: EvoParams
    ) -> Tuple[chex.Array, EvoState]:
        """Search-specific `ask` request. Returns proposals & updated state."""
        raise NotImplementedError

    def tell_strategy(
        self,
        x: chex.Array,
        fitness: chex.Array,
        state: EvoState,
        params: EvoParams,
    ) -> EvoState:
        """Search-specific `tell` update. Returns updated state."""
        raise NotImplementedError

    def get_eval_params(self, state: EvoState):
        """Return reshaped parameters to evaluate."""
        if self.use_param_reshaper:
            x_out = self.param_reshaper.reshape_single(state.mean)
        else:
            x_out = state.mean
        return x_out


class LM_MA_ES(Strategy):
    def __init__(
        self,
        popsize: int,
        num_dims: Optional[int] = None,
        pholder_params: Optional[Union[chex.ArrayTree, chex.Array]] = None,
        elite_ratio: float = 0.5,
        memory_size: int = 10,
        sigma_init: float = 1.0,
        mean_decay: float = 0.0,
        n_devices: Optional[int] = None,
        **fitness_kwargs: Union[bool, int, float]
    ):
        """Limited Memory MA-ES (Loshchilov et al., 2017)
        Reference: https://arxiv.org/pdf/1705.06693.pdf
        """
        super().__init__(
            popsize, num_dims, pholder_params, mean_decay, n_devices, **fitness_kwargs
        )
        assert 0 <= elite_ratio <= 1
        self.elite_ratio = elite_ratio
        self.elite_popsize = max(1, int(self.popsize * self.elite_ratio))
        self.memory_size = memory_size
        self.strategy_name = "LM_MA_ES"

        # Set core kwargs es_params
        self.sigma_init = sigma_init

        # Robustness for int32 - squaring in hyperparameter calculations
        self.max_dims_sq = jnp.minimum(self.num_dims, 40000)

    @property
    def params_strategy(self) -> EvoParams:
        """Return default parameters of evolution strategy."""
        w_hat = jnp.array(
            [
                jnp.log(self.elite_popsize + 0.5) - jnp.log(i)
                for i in range(1, self.elite_popsize + 1)
            ]
        )
        weights_truncated = w_hat / jnp.sum(w_hat)
        # lrate for cumulation of step-size control and rank-one update
        c_sigma = (2 * self.popsize) / self.num_dims
        d_sigma = 2
        mu_w = 1 / jnp.sum(jnp.square(weights_truncated))
        params = EvoParams(
            c_sigma=c_sigma,
            d_sigma=d_sigma,
            mu_w=mu_w,
            sigma_init=self.sigma_init,
        )
        return params

    def initialize_strategy(self, rng: chex.PRNGKey, params: EvoParams) -> EvoState:
        """`initialize` the evolution strategy."""
        w_hat = jnp.array(
            [
                jnp.log(self.elite_popsize + 0.5) - jnp.log(i)
                for i in range(1, self.elite_popsize + 1)
            ]
        )
        weights_truncated = w_hat / jnp.sum(w_hat)
        c_d = jnp.array(
            [1 / (1.5**i * self.num_dims) for i in range(self.memory_size)]
        )
        c_c = jnp.array(
            [self.popsize / (4**i * self.num_dims) for i in range(self.memory_size)]
        )

        # Initialize evolution paths & covariance matrix
        initialization = jax.random.uniform(
            rng,
            (self.num_dims,),
            minval=params.init_min,
            maxval=params.init_max,
        )
        state = EvoState(
            p_sigma=jnp.zeros(self.num_dims),
            sigma=params.sigma_init,
            mean=initialization,
            M=jnp.zeros((self.memory_size, self.num_dims)),
            weights_truncated=weights_truncated,
            c_d=c_d,
            c_c=c_c,
            best_member=initialization,
            z=jnp.zeros((self.popsize, self.num_dims)),
        )
        return state

    def ask_strategy(
        self, rng: chex.PRNGKey, state: EvoState, params: EvoParams
    ) -> Tuple[chex.Array, EvoState]:
        """`ask` for new parameter candidates to evaluate next."""
        x, z = sample(
            rng,
            state.mean,
            state.sigma,
            state.M,
            self.num_dims,
            self.popsize,
            state.c_d,
            state.gen_counter,
        )
        return x, state.replace(z=z)

    def tell_strategy(
        self,
        x: chex.Array,
        fitness: chex.Array,
        state: chex.ArrayTree,
        params: chex.ArrayTree,
    ) -> EvoState:
        """`tell` performance data for strategy state update."""
        # Sort new results, extract elite, store best performer
        concat_p_f = jnp.hstack([jnp.expand_dims(fitness, 1), x])
        sorted_solutions = concat_p_f[concat_p_f[:, 0].argsort()]
        concat_z_f = jnp.hstack([jnp.expand_dims(fitness, 1), state.z])
        sorted_zvectors = concat_z_f[concat_z_f[:, 0].argsort()]
        sorted_z = sorted_zvectors[:, 1:]
        if state.best_fitness < sorted_solutions[0, 0]:
            state.best_fitness = sorted_solutions[0, 0]
            state.best_member = sorted_solutions[0, 1:]
        # Update mean, isotropic/anisotropic paths, covariance, stepsize
        mean = update_mean(
            state.mean,
            sorted_solutions,
            self.elite_popsize,
            params.c_m,
            state.weights_truncated,
        )
        p_sigma, norm_p_sigma, wz = update_p_sigma(
            sorted_z,
            self.elite_popsize,
            state.p_sigma,
            params.c_sigma,
            params.mu_w,
            state.weights_truncated,
        )
        M = update_M_matrix(
            state.M,
            wz,
            state.c_c,
            params.mu_w,
        )
        sigma = update_sigma(
            state.sigma,
            norm_p_sigma,
            params.c_sigma,
            params.d_sigma,
            self.num_dims,
        )
        return state.replace(mean=mean, p_sigma=p_sigma, M=M, sigma=sigma)


def update_mean(
    mean: chex.Array,
    sorted_solutions: chex.Array,
    elite_popsize: int,
    c_m: float,
    weights_truncated: chex.Array,
) -> Tuple[chex.Array, chex.Array]:
    """Update mean of strategy."""
    y_k = sorted_solutions[:elite_popsize, 1:] - mean  # ~ N(0, σ^2 C)
    G_m = weights_truncated.T @ y_k
    mean += c_m * G_m
    return mean


def update_p_sigma(
    z_k: chex.Array,
    elite_popsize: int,
    p_sigma: chex.Array,
    c_sigma: float,
    mu_w: float,
    weights_truncated: chex.Array,
) -> Tuple[chex.Array, float]:
    """Update evolution path for covariance matrix."""
    wz = weights_truncated.T @ (z_k[:elite_popsize, :])
    p_sigma_new = (1 - c_sigma) * p_sigma + jnp.sqrt(
        mu_w * c_sigma * (2 - c_sigma)
    ) * wz
    norm_p_sigma = jnp.linalg.norm(p_sigma_new)
    return p_sigma_new, norm_p_sigma, wz


def update_M_matrix(
    M: chex.Array,
    wz: chex.Array,
    c_c: chex.Array,
    mu_w: float,
) -> chex.Array:
    """Update the M matrix."""
    # Loop over individual memory components - this could be vectorized!
    for i in range(M.shape[0]):
        new_m = (1 - c_c[i]) * M[i, :] + jnp.sqrt(mu_w * c_c[i] * (2 - c_c[i])) * wz
        M = M.at[i, :].set(new_m)
    return M


def update_sigma(
    sigma: float,
    norm_p_sigma: float,
    c_sigma: float,
    d_sigma: float,
    n: int,
) -> float:
    """Update stepsize sigma."""
    sigma_new = sigma * jnp.exp(
        (c_sigma / d_sigma) * (jnp.square(norm_p_sigma) / n - 1)
    )
    return sigma_new


def sample(
    rng: chex.PRNGKey,
    mean: chex.Array,
    sigma: float,
    M: chex.Array,
    n_dim: int,
    pop_size: int,
    c_d: chex.Array,
    gen_counter: int,
) -> tuple[chex.Array, chex.Array]:
    """Jittable Gaussian Sample Helper."""
    z = jax.random.normal(rng, (pop_size, n_dim))  # ~ N(0, I)
    d = jnp.copy(z)
    for j in range(M.shape[0]):
        update_bool = gen_counter > j
        new_d = (1 - c_d[j]) * d + c_d[j] * jnp.outer(jnp.dot(d, M[j, :]), M[j, :])
        d = jax.lax.select(update_bool, new_d, d)
    x = mean + sigma * d  # ~ N(m, σ^2 C)
    return x, z


# README usage ("Run ask-eval-tell loop"), with LM_MA_ES
rng = jax.random.PRNGKey(0)
strategy = LM_MA_ES(popsize=20, num_dims=2, elite_ratio=0.5)
es_params = strategy.default_params
state = strategy.initialize(rng, es_params)

num_generations = 5  # scaffolding
calls = 0  # scaffolding
try:  # scaffolding
    for t in range(num_generations):
        rng, rng_gen, rng_eval = jax.random.split(rng, 3)
        x, state = strategy.ask(rng_gen, state, es_params)
        fitness = jnp.sum(x ** 2, axis=1)  # scaffolding: sphere function as "Your population evaluation fct"
        state = strategy.tell(x, fitness, state, es_params)
        calls += 1  # scaffolding
    _report({"jit(tell)"}, calls)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
