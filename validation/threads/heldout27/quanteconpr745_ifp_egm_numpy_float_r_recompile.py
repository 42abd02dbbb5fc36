# source: https://github.com/QuantEcon/lecture-python.myst/pull/745
# expect: shape-churn at line 364
# runtime: COMPILES 2 CALLS 23
# why: create_ifp stores R = 1 + r in the IFP NamedTuple passed to the jitted solve_model; the first calls use Python-float r (weakly typed R) and the r loops use np.linspace values (strong float64), so the same-shape solver compiles twice for 23 calls.
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



# (cell 1: !pip install cut)  # scaffolding
# cell 2
# import matplotlib.pyplot as plt  # scaffolding: not installed; plots cut
import numpy as np
# import numba  # scaffolding: not installed; the NumPy/Numba version (cells 4-9, 14) is cut
# from quantecon import MarkovChain  # scaffolding: not installed, only used by the cut cells
import jax
import jax.numpy as jnp
from typing import NamedTuple

# cell 3
jax.config.update("jax_enable_x64", True)

# (cells 4-9: NumPy/Numba reference implementation cut)  # scaffolding

# cell 10
class IFP(NamedTuple):
    R: float                  # Gross interest rate R = 1 + r
    β: float                  # Discount factor
    γ: float                  # Preference parameter
    Π: jnp.ndarray            # Markov matrix for exogenous shock
    z_grid: jnp.ndarray       # Markov state values for Z_t
    s: jnp.ndarray            # Exogenous savings grid
    a_y: float                # Scale parameter for Y_t
    b_y: float                # Additive parameter for Y_t
    η_draws: jnp.ndarray      # Draws of innovation η for MC


def create_ifp(r=0.01,
               β=0.96,
               γ=1.5,
               Π=((0.6, 0.4),
                  (0.05, 0.95)),
               z_grid=(-10.0, jnp.log(2.0)),
               savings_grid_max=16,
               savings_grid_size=50,
               a_y=0.2,
               b_y=0.5,
               shock_draw_size=100,
               seed=1234):

    key = jax.random.PRNGKey(seed)
    s = jnp.linspace(0, savings_grid_max, savings_grid_size)
    Π, z_grid = jnp.array(Π), jnp.array(z_grid)
    R = 1 + r
    η_draws = jax.random.normal(key, (shock_draw_size,))
    assert R * β < 1, "Stability condition violated."
    return IFP(R, β, γ, Π, z_grid, s, a_y, b_y, η_draws)

# cell 11
def K(
        c_vals: jnp.ndarray,
        ae_vals: jnp.ndarray,
        ifp: IFP
    ) -> jnp.ndarray:
    """
    The Euler equation operator for the IFP model using the
    Endogenous Grid Method.

    This operator implements one iteration of the EGM algorithm to
    update the consumption policy function.

    """
    R, β, γ, Π, z_grid, s, a_y, b_y, η_draws = ifp
    n_a = len(s)
    n_z = len(z_grid)

    # Utility functions
    def u_prime(c):
        return c**(-γ)

    def u_prime_inv(c):
        return c**(-1/γ)

    def y(z, η):
        return jnp.exp(a_y * η + z * b_y)

    def compute_c_ij(i, j):
        " Function to compute consumption for one (i, j) pair where i >= 1. "

        # For each k (future z state), compute the integral over η
        def compute_expectation_k(k):
            z_prime = z_grid[k]

            # For each η draw, compute u'(σ(R * s_i + y(z', η), z'))
            def compute_for_eta(η):
                next_a = R * s[i] + y(z_prime, η)
                # Interpolate to get σ(R * s_i + y(z', η), z')
                next_c = jnp.interp(next_a, ae_vals[:, k], c_vals[:, k])
                # Return u'(σ(R * s_i + y(z', η), z'))
                return u_prime(next_c)

            # Average over η draws to approximate the integral
            # ∫ u'(σ(R s_i + y(z', η'), z')) φ(η') dη' when z' = z_grid[k] 
            return jnp.mean(jax.vmap(compute_for_eta)(η_draws))

        # Compute expectation: Σ_k [∫ u'(σ(...)) φ(η) dη] * Π[j, k]
        expectations = jax.vmap(compute_expectation_k)(jnp.arange(n_z))
        expectation = jnp.sum(expectations * Π[j, :])

        # Invert to get consumption c_{ij} at (s_i, z_j)
        return u_prime_inv(β * R * expectation)

    # Set up index grids for vmap computation of all c_{ij}
    i_grid = jnp.arange(1, n_a)
    j_grid = jnp.arange(n_z)

    # vmap over j for each i
    compute_c_i = jax.vmap(compute_c_ij, in_axes=(None, 0))
    # vmap over i
    compute_c = jax.vmap(lambda i: compute_c_i(i, j_grid))

    # Compute consumption for i >= 1
    new_c_interior = compute_c(i_grid)  # Shape: (n_a-1, n_z)

    # For i = 0, set consumption to 0
    new_c_boundary = jnp.zeros((1, n_z))

    # Concatenate boundary and interior
    new_c_vals = jnp.concatenate([new_c_boundary, new_c_interior], axis=0)

    # Compute endogenous asset grid: a^e_{ij} = c_{ij} + s_i
    new_ae_vals = new_c_vals + s[:, None]

    return new_c_vals, new_ae_vals

# cell 12
@jax.jit
def solve_model(
        ifp: IFP,
        c_vals_init: jnp.ndarray,   # Initial guess of σ on grid endogenous grid
        ae_vals_init: jnp.ndarray,  # Initial endogenous grid
        tol: float = 1e-5,
        max_iter: int = 1000
    ) -> jnp.ndarray:
    """
    Solve the model using time iteration with EGM.

    """

    def condition(loop_state):
        c_vals, ae_vals, i, error = loop_state
        return (error > tol) & (i < max_iter)

    def body(loop_state):
        c_vals, ae_vals, i, error = loop_state
        new_c_vals, new_ae_vals = K(c_vals, ae_vals, ifp)
        error = jnp.max(jnp.abs(new_c_vals - c_vals))
        i += 1
        return new_c_vals, new_ae_vals, i, error

    i, error = 0, tol + 1
    initial_state = (c_vals_init, ae_vals_init, i, error)
    final_loop_state = jax.lax.while_loop(condition, body, initial_state)
    c_vals, ae_vals, i, error = final_loop_state

    return c_vals, ae_vals

# cell 13
ifp = create_ifp()
R, β, γ, Π, z_grid, s, a_y, b_y, η_draws = ifp
# Set initial conditions where the agent consumes everything
ae_vals_init = s[:, None] * jnp.ones(len(z_grid))
c_vals_init = ae_vals_init
# Solve starting from these initial conditions
c_vals_jax, ae_vals_jax = solve_model(ifp, c_vals_init, ae_vals_init)

# (cells 14-16: comparison with the Numba version and plots cut)  # scaffolding

# cell 17
def c_star(x, β, γ):
    return (1 - β ** (1/γ)) * x


def v_star(x, β, γ):
    return (1 - β**(1 / γ))**(-γ) * (x**(1-γ) / (1-γ))

# cell 18
ifp_cake_eating = create_ifp(r=0.0, z_grid=(-jnp.inf, -jnp.inf))
R, β, γ, Π, z_grid, s, a_y, b_y, η_draws = ifp_cake_eating
ae_vals_init = s[:, None] * jnp.ones(len(z_grid))
c_vals_init = ae_vals_init
c_vals, ae_vals = solve_model(ifp_cake_eating, c_vals_init, ae_vals_init)

# (plot cut)  # scaffolding

# cell 19
@jax.jit
def simulate_household(
        key, a_0, z_idx_0, c_vals, ae_vals, ifp, T
    ):
    """
    Simulates a single household for T periods to approximate the stationary
    distribution of assets.

    - key is the state of the random number generator
    - ifp is an instance of IFP
    - c_vals, ae_vals are the optimal consumption policy, endogenous grid for ifp

    """
    R, β, γ, Π, z_grid, s, a_y, b_y, η_draws = ifp
    n_z = len(z_grid)

    def y(z, η):
        return jnp.exp(a_y * η + z * b_y)

    # Create interpolation function for consumption policy
    σ = lambda a, z_idx: jnp.interp(a, ae_vals[:, z_idx], c_vals[:, z_idx])

    # Simulate forward T periods
    def update(t, state):
        a, z_idx = state
        # Draw next shock z' from Π[z, z']
        current_key = jax.random.fold_in(key, 2*t)
        z_next_idx = jax.random.choice(current_key, n_z, p=Π[z_idx]).astype(jnp.int32)
        z_next = z_grid[z_next_idx]
        # Draw η shock
        η_key = jax.random.fold_in(key, 2*t + 1)
        η = jax.random.normal(η_key)
        # Update assets: a' = R * (a - c) + Y'
        a_next = R * (a - σ(a, z_idx)) + y(z_next, η)
        # Return updated state
        return a_next, z_next_idx

    initial_state = a_0, z_idx_0
    final_state = jax.lax.fori_loop(0, T, update, initial_state)
    a_final, _ = final_state
    return a_final

# cell 20
def compute_asset_stationary(
        c_vals, ae_vals, ifp, num_households=2_000, T=500, seed=1234  # scaffolding: 50_000 in the lecture
    ):
    """
    Simulates num_households households for T periods to approximate
    the stationary distribution of assets.

    Returns the final cross-section of asset holdings.

    - ifp is an instance of IFP
    - c_vals, ae_vals are the optimal consumption policy and endogenous grid.

    """
    R, β, γ, Π, z_grid, s, a_y, b_y, η_draws = ifp
    n_z = len(z_grid)

    # Create interpolation function for consumption policy
    # Interpolate on the endogenous grid
    σ = lambda a, z_idx: jnp.interp(a, ae_vals[:, z_idx], c_vals[:, z_idx])

    # Start with assets = savings_grid_max / 2
    a_0_vector = jnp.full(num_households, s[-1] / 2)
    # Initialize the exogenous state of each household
    z_idx_0_vector = jnp.zeros(num_households).astype(jnp.int32)

    # Vectorize over many households
    key = jax.random.PRNGKey(seed)
    keys = jax.random.split(key, num_households)
    # Vectorize simulate_household in (key, a_0, z_idx_0)
    sim_all_households = jax.vmap(
        simulate_household, in_axes=(0, 0, 0, None, None, None, None)
    )
    assets = sim_all_households(keys, a_0_vector, z_idx_0_vector, c_vals, ae_vals, ifp, T)

    return np.array(assets)

# cell 21
ifp = create_ifp()
R, β, γ, Π, z_grid, s, a_y, b_y, η_draws = ifp
ae_vals_init = s[:, None] * jnp.ones(len(z_grid))
c_vals_init = ae_vals_init
c_vals, ae_vals = solve_model(ifp, c_vals_init, ae_vals_init)
assets = compute_asset_stationary(c_vals, ae_vals, ifp)

# (plot cut)  # scaffolding

# cell 22
def gini_coefficient(x):
    """
    Compute the Gini coefficient for array x.

    The Gini coefficient is a measure of inequality that ranges from
    0 (perfect equality) to 1 (perfect inequality).
    """
    x = jnp.asarray(x)
    n = len(x)
    # Sort values
    x_sorted = jnp.sort(x)
    # Compute Gini coefficient
    cumsum = jnp.cumsum(x_sorted)
    return (2 * jnp.sum((jnp.arange(1, n+1)) * x_sorted)) / (n * cumsum[-1]) - (n + 1) / n


def top_share(x, p=0.01):
    """
    Compute the share of total wealth held by the top p fraction of households.

    Parameters:
        x: array of wealth values
        p: fraction of top households (default 0.01 for top 1%)

    Returns:
        Share of total wealth held by top p fraction
    """
    x = jnp.asarray(x)
    x_sorted = jnp.sort(x)
    # Number of households in top p%
    n_top = int(jnp.ceil(len(x) * p))
    # Wealth held by top p%
    wealth_top = jnp.sum(x_sorted[-n_top:])
    # Total wealth
    wealth_total = jnp.sum(x_sorted)
    return wealth_top / wealth_total if wealth_total > 0 else 0.0

# cell 23
gini = gini_coefficient(assets)
top1 = top_share(assets, p=0.01)

print(f"Gini coefficient: {gini:.4f}")
print(f"Top 1% wealth share: {top1:.4f}")

# cell 24
# Test over 8 interest rate values
M = 8
r_vals = np.linspace(0, 0.015, M)

gini_vals = []
top1_vals = []

# Solve and simulate for each r
for r in r_vals:
    print(f'Analyzing inequality at r = {r:.4f}')
    ifp = create_ifp(r=r)
    R, β, γ, Π, z_grid, s, a_y, b_y, η_draws = ifp
    ae_vals_init = s[:, None] * jnp.ones(len(z_grid))
    c_vals_init = ae_vals_init
    c_vals, ae_vals = solve_model(ifp, c_vals_init, ae_vals_init)
    assets = compute_asset_stationary(
        c_vals, ae_vals, ifp, num_households=2_000, T=500  # scaffolding: 50_000 in the lecture
    )
    gini = gini_coefficient(assets)
    top1 = top_share(assets, p=0.01)
    gini_vals.append(gini)
    top1_vals.append(top1)
    # Use last solution as initial conditions for the policy solver
    c_vals_init = c_vals
    ae_vals_init = ae_vals

# (cell 25: plots cut)  # scaffolding

# cell 26
# With β=0.96, we need R*β < 1, so r < 0.0416
r_vals = np.linspace(0, 0.04, 4)

# fig, ax = plt.subplots()  # scaffolding: plot cut
for r_val in r_vals:
    ifp = create_ifp(r=r_val)
    R, β, γ, Π, z_grid, s, a_y, b_y, η_draws = ifp
    ae_vals_init = s[:, None] * jnp.ones(len(z_grid))
    c_vals_init = ae_vals_init
    c_vals, ae_vals = solve_model(ifp, c_vals_init, ae_vals_init)
    # Plot policy
    # ax.plot(ae_vals[:, 0], c_vals[:, 0], label=f'$r = {r_val:.3f}$')  # scaffolding: plot cut
    # Start next round with last solution
    c_vals_init = c_vals
    ae_vals_init = ae_vals

# (plot cut)  # scaffolding

# cell 27
M = 8
r_vals = np.linspace(0, 0.015, M)

# cell 28
# fig, ax = plt.subplots()  # scaffolding: plot cut

asset_mean = []
for r in r_vals:
    print(f'Solving model at r = {r}')
    ifp = create_ifp(r=r)
    R, β, γ, Π, z_grid, s, a_y, b_y, η_draws = ifp
    ae_vals_init = s[:, None] * jnp.ones(len(z_grid))
    c_vals_init = ae_vals_init
    c_vals, ae_vals = solve_model(ifp, c_vals_init, ae_vals_init)
    assets = compute_asset_stationary(c_vals, ae_vals, ifp, num_households=2_000, T=500)  # scaffolding: 10_000 in the lecture
    mean = np.mean(assets)
    asset_mean.append(mean)
    print(f'  Mean assets: {mean:.4f}')
    # Start next round with last solution
    c_vals_init = c_vals
    ae_vals_init = ae_vals
# (plot cut)  # scaffolding
_report({"jit(solve_model)"}, 23)  # scaffolding: solve_model runs in cells 13, 18, 21 and 20 times in the r loops
