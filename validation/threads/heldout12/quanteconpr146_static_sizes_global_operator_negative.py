# source: https://github.com/QuantEcon/lecture-jax/pull/146
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the version the PR replaced: the operator T is a module-level function, only the hashable sizes tuple is static, and constants/arrays are traced, so the two VFI runs share one compilation.

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
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_enable_x64", True)


def tauchen(n, rho, sigma):  # scaffolding: quantecon.tauchen stand-in (quantecon is not installed)
    from math import erf, sqrt
    cdf = lambda x: 0.5 * (1 + erf(x / sqrt(2)))
    std_y = sigma / np.sqrt(1 - rho ** 2)
    x = np.linspace(-3 * std_y, 3 * std_y, n)
    step = x[1] - x[0]
    P = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            lo = (x[j] - rho * x[i] - step / 2) / sigma
            hi = (x[j] - rho * x[i] + step / 2) / sigma
            P[i, j] = (cdf(hi) if j < n - 1 else 1.0) - (cdf(lo) if j > 0 else 0.0)
    return x, P


# lectures/opt_invest.md
def create_investment_model(
        r=0.01,                              # Interest rate
        a_0=10.0, a_1=1.0,                   # Demand parameters
        γ=25.0, c=1.0,                       # Adjustment and unit cost
        y_min=0.0, y_max=20.0, y_size=20,    # Grid for output (scaffolding: 100 cut to 20)
        ρ=0.9, ν=1.0,                        # AR(1) parameters
        z_size=15):                          # Grid size for shock (scaffolding: 150 cut to 15)
    """
    A function that takes in parameters and returns an instance of Model that
    contains data for the investment problem.
    """
    β = 1 / (1 + r)
    y_grid = jnp.linspace(y_min, y_max, y_size)
    z_grid, Q = tauchen(z_size, ρ, ν)  # scaffolding: mc = qe.tauchen(z_size, ρ, ν); mc.state_values, mc.P

    # Break up parameters into static and nonstatic components
    constants = β, a_0, a_1, γ, c
    sizes = y_size, z_size
    arrays = y_grid, z_grid, Q

    # Shift arrays to the device (e.g., GPU)
    arrays = tuple(map(jax.device_put, arrays))
    return constants, sizes, arrays


def B(v, constants, sizes, arrays):
    """
    A vectorized version of the right-hand side of the Bellman equation
    (before maximization)
    """

    # Unpack
    β, a_0, a_1, γ, c = constants
    y_size, z_size = sizes
    y_grid, z_grid, Q = arrays

    # Compute current rewards r(y, z, yp) as array r[i, j, ip]
    y  = jnp.reshape(y_grid, (y_size, 1, 1))    # y[i]   ->  y[i, j, ip]
    z  = jnp.reshape(z_grid, (1, z_size, 1))    # z[j]   ->  z[i, j, ip]
    yp = jnp.reshape(y_grid, (1, 1, y_size))    # yp[ip] -> yp[i, j, ip]
    r = (a_0 - a_1 * y + z - c) * y - γ * (yp - y)**2

    # Calculate continuation rewards at all combinations of (y, z, yp)
    v = jnp.reshape(v, (1, 1, y_size, z_size))  # v[ip, jp] -> v[i, j, ip, jp]
    Q = jnp.reshape(Q, (1, z_size, 1, z_size))  # Q[j, jp]  -> Q[i, j, ip, jp]
    EV = jnp.sum(v * Q, axis=3)                 # sum over last index jp

    # Compute the right-hand side of the Bellman equation
    return r + β * EV

# Create a jitted function
B = jax.jit(B, static_argnums=(2,))


def T(v, constants, sizes, arrays):
    """The Bellman operator."""
    return jnp.max(B(v, constants, sizes, arrays), axis=2)

T = jax.jit(T, static_argnums=(2,))


def get_greedy(v, constants, sizes, arrays):
    "Computes a v-greedy policy, returned as a set of indices."
    return jnp.argmax(B(v, constants, sizes, arrays), axis=2)

get_greedy = jax.jit(get_greedy, static_argnums=(2,))


# lectures/_static/lecture_specific/successive_approx.py (before the PR)
def successive_approx_jax(x_0,                   # Initial condition
                          constants,
                          sizes,
                          arrays,                 
                          tolerance=1e-6,        # Error tolerance
                          max_iter=10_000):      # Max iteration bound

    def body_fun(k_x_err):
        k, x, error = k_x_err
        x_new = T(x, constants, sizes, arrays)
        error = jnp.max(jnp.abs(x_new - x))
        return k + 1, x_new, error

    def cond_fun(k_x_err):
        k, x, error = k_x_err
        return jnp.logical_and(error > tolerance, k < max_iter)

    k, x, error = jax.lax.while_loop(cond_fun, body_fun, (1, x_0, tolerance + 1))
    return x

successive_approx_jax = jax.jit(successive_approx_jax, static_argnums=(2,))


# lectures/_static/lecture_specific/vfi.py (before the PR)
# Implements VFI-Value Function iteration

def value_iteration(model, tol=1e-5):
    constants, sizes, arrays = model
    vz = jnp.zeros(sizes)

    v_star = successive_approx_jax(vz, constants, sizes, arrays, tolerance=tol)
    return get_greedy(v_star, constants, sizes, arrays)


# the lecture's two VFI runs on the same model
model = create_investment_model()
calls = 0  # scaffolding
print("Starting VFI.")
out = value_iteration(model)
calls += 1  # scaffolding

print("Running value function iteration.")
σ_vfi = value_iteration(model, tol=1e-5)
calls += 1  # scaffolding
print(bool((out == σ_vfi).all()))  # scaffolding
_report({"jit(successive_approx_jax)"}, calls)  # scaffolding
