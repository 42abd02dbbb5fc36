# source: https://github.com/QuantEcon/lecture-jax/pull/151
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: value_iteration and value_iteration_vmap each pass a freshly built lambda as the static operator of the jitted successive_approx_jax, but each is called once with a different operator, so the two compiles are both needed; nothing is recompiled.
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


# lectures/opt_savings_1.md at 216ed17 (PR #151, which split the optimal savings lecture): the JAX part's code cells in order;
# the NumPy version, the speed-gain print that uses its timing, and plots cut (scaffolding)
import numpy as np
import jax
import jax.numpy as jnp
from collections import namedtuple
import time
from scipy.stats import norm  # scaffolding


class qe:  # scaffolding: quantecon is not installed; qe.tauchen re-implemented (same discretisation)
    @staticmethod
    def tauchen(n, rho, sigma, mu=0.0, n_std=3):  # scaffolding
        std_y = np.sqrt(sigma**2 / (1 - rho**2))  # scaffolding
        x = np.linspace(-n_std * std_y, n_std * std_y, n)  # scaffolding
        step = x[1] - x[0]  # scaffolding
        P = np.empty((n, n))  # scaffolding
        for i in range(n):  # scaffolding
            z = x - rho * x[i]  # scaffolding
            P[i] = norm.cdf((z + step / 2) / sigma) - norm.cdf((z - step / 2) / sigma)  # scaffolding
            P[i, 0] = norm.cdf((x[0] - rho * x[i] + step / 2) / sigma)  # scaffolding
            P[i, -1] = 1 - norm.cdf((x[-1] - rho * x[i] - step / 2) / sigma)  # scaffolding
        return namedtuple("MC", "state_values P")(x + mu / (1 - rho), P)  # scaffolding


jax.config.update("jax_enable_x64", True)

def create_consumption_model(R=1.01,                    # Gross interest rate
                             β=0.98,                    # Discount factor
                             γ=2,                       # CRRA parameter
                             w_min=0.01,                # Min wealth
                             w_max=5.0,                 # Max wealth
                             w_size=150,                # Grid side
                             ρ=0.9, ν=0.1, y_size=100): # Income parameters
    """
    A function that takes in parameters and returns parameters and grids 
    for the optimal savings problem.
    """
    w_grid = jnp.linspace(w_min, w_max, w_size)
    mc = qe.tauchen(n=y_size, rho=ρ, sigma=ν)
    y_grid, Q = jnp.exp(mc.state_values), jax.device_put(mc.P)
    sizes = w_size, y_size
    return (β, R, γ), sizes, (w_grid, y_grid, Q)

def B(v, constants, sizes, arrays):
    """
    A vectorized version of the right-hand side of the Bellman equation
    (before maximization), which is a 3D array representing

        B(w, y, w′) = u(Rw + y - w′) + β Σ_y′ v(w′, y′) Q(y, y′)

    for all (w, y, w′).
    """

    # Unpack
    β, R, γ = constants
    w_size, y_size = sizes
    w_grid, y_grid, Q = arrays

    # Compute current rewards r(w, y, wp) as array r[i, j, ip]
    w  = jnp.reshape(w_grid, (w_size, 1, 1))    # w[i]   ->  w[i, j, ip]
    y  = jnp.reshape(y_grid, (1, y_size, 1))    # z[j]   ->  z[i, j, ip]
    wp = jnp.reshape(w_grid, (1, 1, w_size))    # wp[ip] -> wp[i, j, ip]
    c = R * w + y - wp

    # Calculate continuation rewards at all combinations of (w, y, wp)
    v = jnp.reshape(v, (1, 1, w_size, y_size))  # v[ip, jp] -> v[i, j, ip, jp]
    Q = jnp.reshape(Q, (1, y_size, 1, y_size))  # Q[j, jp]  -> Q[i, j, ip, jp]
    EV = jnp.sum(v * Q, axis=3)                 # sum over last index jp

    # Compute the right-hand side of the Bellman equation
    return jnp.where(c > 0, c**(1-γ)/(1-γ) + β * EV, -jnp.inf)


B = jax.jit(B, static_argnums=(2,))

def T(v, constants, sizes, arrays):
    "The Bellman operator."
    return jnp.max(B(v, constants, sizes, arrays), axis=2)

T = jax.jit(T, static_argnums=(2,))

def get_greedy(v, constants, sizes, arrays):
    "Computes a v-greedy policy, returned as a set of indices."
    return jnp.argmax(B(v, constants, sizes, arrays), axis=2)

get_greedy = jax.jit(get_greedy, static_argnums=(2,))

def successive_approx_jax(T,                     # Operator (callable)
                          x_0,                   # Initial condition                
                          tolerance=1e-6,        # Error tolerance
                          max_iter=10_000):      # Max iteration bound
    def body_fun(k_x_err):
        k, x, error = k_x_err
        x_new = T(x)
        error = jnp.max(jnp.abs(x_new - x))
        return k + 1, x_new, error

    def cond_fun(k_x_err):
        k, x, error = k_x_err
        return jnp.logical_and(error > tolerance, k < max_iter)

    k, x, error = jax.lax.while_loop(cond_fun, body_fun, 
                                    (1, x_0, tolerance + 1))
    return x

successive_approx_jax = \
    jax.jit(successive_approx_jax, static_argnums=(0,))

def value_iteration(model, tol=1e-5):
    constants, sizes, arrays = model
    vz = jnp.zeros(sizes)
    _T = lambda v: T(v, constants, sizes, arrays)
    v_star = successive_approx_jax(_T, vz, tolerance=tol)
    return v_star, get_greedy(v_star, constants, sizes, arrays)

model = create_consumption_model()
# Unpack
constants, sizes, arrays = model
β, R, γ = constants
w_size, y_size = sizes
w_grid, y_grid, Q = arrays

print("Starting VFI using vectorization.")
start_time = time.time()
v_star_jax, σ_star_jax = value_iteration(model)
jax_elapsed = time.time() - start_time
print(f"VFI completed in {jax_elapsed} seconds.")

def B(v, constants, sizes, arrays, i, j, ip):
    """
    The right-hand side of the Bellman equation before maximization, which takes
    the form

        B(w, y, w′) = u(Rw + y - w′) + β Σ_y′ v(w′, y′) Q(y, y′)

    The indices are (i, j, ip) -> (w, y, w′).
    """
    β, R, γ = constants
    w_size, y_size = sizes
    w_grid, y_grid, Q = arrays
    w  = w_grid[i]
    y  = y_grid[j]
    wp = w_grid[ip]
    c = R * w + y - wp
    EV = jnp.sum(v[ip, :] * Q[j, :]) 
    return jnp.where(c > 0, c**(1-γ)/(1-γ) + β * EV, -jnp.inf)

B_1    = jax.vmap(B,   in_axes=(None, None, None, None, None, None, 0))
B_2    = jax.vmap(B_1, in_axes=(None, None, None, None, None, 0,    None))
B_vmap = jax.vmap(B_2, in_axes=(None, None, None, None, 0,    None, None))

def T_vmap(v, constants, sizes, arrays):
    "The Bellman operator."
    w_size, y_size = sizes
    w_indices, y_indices = jnp.arange(w_size), jnp.arange(y_size)
    val = B_vmap(v, constants, sizes, arrays, w_indices, y_indices, w_indices)
    return jnp.max(val, axis=-1)

T_vmap = jax.jit(T_vmap, static_argnums=(2,))

def get_greedy_vmap(v, constants, sizes, arrays):
    "Computes a v-greedy policy, returned as a set of indices."
    w_size, y_size = sizes
    w_indices, y_indices = jnp.arange(w_size), jnp.arange(y_size)
    val = B_vmap(v, constants, sizes, arrays, w_indices, y_indices, w_indices)
    return jnp.argmax(val, axis=-1)

get_greedy_vmap = jax.jit(get_greedy_vmap, static_argnums=(2,))


def value_iteration_vmap(model, tol=1e-5):
    constants, sizes, arrays = model
    vz = jnp.zeros(sizes)
    _T = lambda v: T_vmap(v, constants, sizes, arrays)
    v_star = successive_approx_jax(_T, vz, tolerance=tol)
    return v_star, get_greedy(v_star, constants, sizes, arrays)

print("Starting VFI using vmap.")
start_time = time.time()
v_star_vmap, σ_star_vmap = value_iteration_vmap(model)
jax_vmap_elapsed = time.time() - start_time
print(f"VFI completed in {jax_vmap_elapsed} seconds.")

print(jnp.allclose(v_star_vmap, v_star_jax))
print(jnp.allclose(σ_star_vmap, σ_star_jax))
_report({"jit(successive_approx_jax)"}, 2)  # scaffolding
