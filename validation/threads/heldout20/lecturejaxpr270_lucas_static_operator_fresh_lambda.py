# source: https://github.com/QuantEcon/lecture-jax/pull/270
# expect: changing-static at line 104
# runtime: COMPILES 2 CALLS 4
# why: successive_approx_jax is jitted with the operator T as static argument 0, and solve_model passes a new `lambda f: T(params, arrays, f)` (closing over the parameters) on every call, so solves miss the cache and retrace: measured 2 compiles for 4 solves on same-shape arrays, where traced parameters would need 1.
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
# QuantEcon/lecture-jax PR #270: lucas_model's solver jitted with the operator as a static argument, a fresh lambda per solve
import jax
import jax.numpy as jnp

def create_lucas_tree_model(
    γ=2,     # CRRA utility parameter
    β=0.95,  # Discount factor
    α=0.90,  # Correlation coefficient
    σ=0.1,   # Volatility coefficient
    grid_size=500,
    draw_size=1_000,
    seed=11,
):
    # Set the grid interval to contain most of the mass of the
    # stationary distribution of the consumption endowment
    ssd = σ / jnp.sqrt(1 - α**2)
    grid_min, grid_max = jnp.exp(-4 * ssd), jnp.exp(4 * ssd)
    grid = jnp.linspace(grid_min, grid_max, grid_size)

    # Set up distribution for shocks
    key = jax.random.key(seed)
    draws = jax.random.lognormal(key, σ, shape=(draw_size,))
    grid_reshaped = grid.reshape((grid_size, 1))
    draws_reshaped = draws.reshape((-1, draw_size))
    h = β * jnp.mean((grid_reshaped**α * draws_reshaped) ** (1 - γ), axis=1)
    params = γ, β, α, σ
    arrays = grid, draws, h
    return params, arrays

@jax.jit
def compute_expectation(y, α, draws, grid, f):
    return jnp.mean(jnp.interp(y**α * draws, grid, f))


# Vectorize over y
compute_expectation = jax.vmap(
    compute_expectation, in_axes=(0, None, None, None, None)
)

@jax.jit
def T(params, arrays, f):
    """
    The Lucas operator

    """
    grid, draws, h = arrays
    γ, β, α, σ = params
    mci = compute_expectation(grid, α, draws, grid, f)
    return h + β * mci

def successive_approx_jax(
    T,         # Operator (callable)
    x_0,       # Initial condition
    tol=1e-6,  # Error tolerance
    max_iter=10_000,
):  # Max iteration bound
    def body_fun(k_x_err):
        k, x, error = k_x_err
        x_new = T(x)
        error = jnp.max(jnp.abs(x_new - x))
        return k + 1, x_new, error

    def cond_fun(k_x_err):
        k, x, error = k_x_err
        return jnp.logical_and(error > tol, k < max_iter)

    k, x, error = jax.lax.while_loop(cond_fun, body_fun, (1, x_0, tol + 1))
    return x


successive_approx_jax = jax.jit(successive_approx_jax, static_argnums=(0,))

def solve_model(params, arrays, tol=1e-6, max_iter=500):
    """
    Compute the equilibrium price function.
    """
    # Simplify notation
    grid, draws, h = arrays
    γ, β, α, σ = params
    _T = lambda f: T(params, arrays, f)
    f = jnp.ones_like(grid)  # Initial guess of f

    f = successive_approx_jax(_T, f, tol=tol, max_iter=max_iter)

    price = f * grid**γ  # Back out price vector

    return price

params, arrays = create_lucas_tree_model()
grid, draws, h = arrays
γ, β, α, σ = params
# Solve once to compile
price_vals = solve_model(params, arrays).block_until_ready()  # scaffolding: qe.Timer() dropped

params, arrays = create_lucas_tree_model()
grid, draws, h = arrays
γ, β, α, σ = params
# Solve once to compile
price_vals = solve_model(params, arrays).block_until_ready()  # scaffolding: qe.Timer() dropped
_report({"jit(successive_approx_jax)"}, 4)  # scaffolding
