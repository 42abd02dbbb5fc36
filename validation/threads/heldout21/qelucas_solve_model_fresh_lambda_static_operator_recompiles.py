# source: https://jax.quantecon.org/lucas_model.html
# expect: changing-static at line 115
# runtime: COMPILES 4 CALLS 4
# why: solve_model passes a fresh lambda _T as the static operator of the jitted successive_approx_jax, so the rerun meant to exclude compile time and each β in the comparison loop compile again: 4 compiles / 4 calls.
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
import jax.numpy as jnp
import jax
import numpy as np
# import numba  # scaffolding: the Numba section is left out
# import quantecon as qe  # scaffolding: not installed; a stand-in for qe.Timer below
import time as _time  # scaffolding
class _Timer:  # scaffolding: stand-in for qe.Timer (context manager with .elapsed)
    def __enter__(self):  # scaffolding
        self.t0 = _time.time()  # scaffolding
        return self  # scaffolding
    def __exit__(self, *exc):  # scaffolding
        self.elapsed = _time.time() - self.t0  # scaffolding
import types  # scaffolding
qe = types.SimpleNamespace(Timer=_Timer)  # scaffolding

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
with qe.Timer() as jax_with_compile_time:
    price_vals = solve_model(params, arrays).block_until_ready()

# Now time execution without compile time
with qe.Timer() as jax_without_compile_time:
    price_vals = solve_model(params, arrays).block_until_ready()
# print("Speedup factor = ", numba_without_compile_time.elapsed / jax_without_compile_time.elapsed)  # scaffolding: the Numba timing is left out

# fig, ax = plt.subplots(figsize=(10, 6))  # scaffolding: plotting left out

for β in (0.95, 0.98):
    params, arrays = create_lucas_tree_model(β=β)
    grid, draws, h = arrays
    γ, beta, α, σ = params
    price_vals = solve_model(params, arrays)
    label = rf"$\beta = {beta}$"
    # ax.plot(grid, price_vals, lw=2, alpha=0.7, label=label)  # scaffolding: plotting left out

# ax.legend(loc="upper left")  # scaffolding: plotting left out
# ax.set(xlabel="$y$", ylabel="price", xlim=(min(grid), max(grid)))  # scaffolding: plotting left out
# plt.show()  # scaffolding: plotting left out
_report({"jit(successive_approx_jax)"}, 4)  # scaffolding
