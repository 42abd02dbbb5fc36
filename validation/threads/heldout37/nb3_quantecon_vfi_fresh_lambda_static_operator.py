# source: https://github.com/QuantEcon/cbc_2024/blob/4abda984e6aedac1c50ee40368e423ab8fc586b4/4_thursday/opt_savings_1.ipynb
# expect: changing-static at line 130
# runtime: COMPILES 4 CALLS 4
# why: successive_approx_jax is jitted with the operator T as a static argument, and value_function_iteration passes a new `lambda v: T(v, model)` on every call, so the notebook's second 'without compile time' run recompiles the whole while_loop (the vmap version does the same with `_T = lambda ...`).

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


import numpy as np
import jax
import jax.numpy as jnp
from collections import namedtuple
import time
# (quantecon and matplotlib imports dropped: quantecon is not installed, plots cut)


class qe:  # scaffolding: stand-in for quantecon.tauchen (same grid and transition matrix construction)
    @staticmethod
    def tauchen(n, rho, sigma, mu=0.0, n_std=3):
        from math import erf, sqrt
        cdf = np.vectorize(lambda x: 0.5 * (1 + erf(x / sqrt(2))))
        std_y = sigma / np.sqrt(1 - rho**2)
        x = np.linspace(-n_std * std_y, n_std * std_y, n)
        step = x[1] - x[0]
        P = np.empty((n, n))
        for i in range(n):
            z = x - rho * x[i]
            upper = cdf((z + step / 2) / sigma)
            lower = cdf((z - step / 2) / sigma)
            P[i] = upper - lower
            P[i, 0] = upper[0]
            P[i, -1] = 1 - lower[-1]
        return namedtuple("MC", ("state_values", "P"))(x, P)


Model = namedtuple('Model', ('β', 'R', 'γ', 'w_grid', 'y_grid', 'Q'))
def create_consumption_model(R=1.01,                    # Gross interest rate
                             β=0.98,                    # Discount factor
                             γ=2,                       # CRRA parameter
                             w_min=0.01,                # Min wealth
                             w_max=5.0,                 # Max wealth
                             w_size=150,                # Grid size
                             ρ=0.9, ν=0.1, y_size=100): # Income parameters
    """
    A function that takes in parameters and returns parameters and grids 
    for the optimal savings problem.
    """
    w_grid = jnp.linspace(w_min, w_max, w_size)
    mc = qe.tauchen(n=y_size, rho=ρ, sigma=ν)
    y_grid, Q = jnp.exp(mc.state_values), jax.device_put(mc.P)
    return Model(β, R, γ, w_grid, y_grid, Q)
@jax.jit
def B(v, model):
    """
    A vectorized version of the right-hand side of the Bellman equation
    (before maximization), which is a 3D array representing

        B(w, y, w′) = u(Rw + y - w′) + β Σ_y′ v(w′, y′) Q(y, y′)

    for all (w, y, w′).
    """

    # Unpack
    β, R, γ, w_grid, y_grid, Q = model
    w_size, y_size = len(w_grid), len(y_grid)

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
@jax.jit
def T(v, model):
    "The Bellman operator."
    return jnp.max(B(v, model), axis=2)
@jax.jit
def get_greedy(v, model):
    "Computes a v-greedy policy, returned as a set of indices."
    return jnp.argmax(B(v, model), axis=2)
def successive_approx_jax(T,                     # Operator (callable)
                          v_0,                   # Initial condition                
                          tolerance=1e-6,        # Error tolerance
                          max_iter=10_000):      # Max iteration bound
    def body_fun(state):
        i, v, error = state
        v_new = T(v)
        error = jnp.max(jnp.abs(v_new - v))
        return i + 1, v_new, error

    def cond_fun(state):
        i, v, error = state
        return jnp.logical_and(error > tolerance, i < max_iter)

    initial_state = 1, v_0, tolerance + 1
    i, x, error = jax.lax.while_loop(cond_fun, body_fun, initial_state)
    return x

successive_approx_jax = jax.jit(successive_approx_jax, static_argnums=(0,))
def value_function_iteration(model, tol=1e-5):
    β, R, γ, w_grid, y_grid, Q = model
    w_size, y_size = len(w_grid), len(y_grid)
    v_0 = jnp.zeros((w_size, y_size))
    v_star = successive_approx_jax(lambda v: T(v, model), v_0, tolerance=tol)
    return v_star, get_greedy(v_star, model)
model = create_consumption_model(w_size=60, y_size=20)  # scaffolding: grids cut from 150 x 100
print("Starting VFI using JAX / vectorization.")
start_time = time.time()
v_star_jax, σ_star_jax = value_function_iteration(model)
jax_elapsed = time.time() - start_time
print(f"VFI completed in {jax_elapsed} seconds.")
print("Starting VFI on using JAX / vectorization.")
start_time = time.time()
v_star_jax, σ_star_jax = value_function_iteration(model)
jax_elapsed = time.time() - start_time
print(f"VFI completed in {jax_elapsed} seconds.")
def B(v, model, i, j, ip):
    """
    The right-hand side of the Bellman equation before maximization, which takes
    the form

        B(w, y, w′) = u(Rw + y - w′) + β Σ_y′ v(w′, y′) Q(y, y′)

    The indices are (i, j, ip) -> (w, y, w′).
    """
    β, R, γ, w_grid, y_grid, Q = model
    w, y, wp  = w_grid[i], y_grid[j], w_grid[ip]
    c = R * w + y - wp
    EV = jnp.sum(v[ip, :] * Q[j, :]) 
    return jnp.where(c > 0, c**(1-γ)/(1-γ) + β * EV, -jnp.inf)
B = jax.vmap(B, in_axes=(None, None, None, None, 0))
B = jax.vmap(B, in_axes=(None, None, None, 0,    None))
B = jax.vmap(B, in_axes=(None, None, 0,    None, None))
@jax.jit
def T_vmap(v, model):
    "The Bellman operator."
    β, R, γ, w_grid, y_grid, Q = model
    w_size, y_size = len(w_grid), len(y_grid)
    w_indices, y_indices = jnp.arange(w_size), jnp.arange(y_size)
    B_values = B(v, model, w_indices, y_indices, w_indices)
    return jnp.max(B_values, axis=-1)


@jax.jit
def get_greedy_vmap(v, model):
    "Computes a v-greedy policy, returned as a set of indices."
    β, R, γ, w_grid, y_grid, Q = model
    w_size, y_size = len(w_grid), len(y_grid)
    w_indices, y_indices = jnp.arange(w_size), jnp.arange(y_size)
    B_values = B_vmap(v, model, w_indices, y_indices, w_indices)
    return jnp.argmax(B_values, axis=-1)

def value_iteration_vmap(model, tol=1e-5):
    β, R, γ, w_grid, y_grid, Q = model
    w_size, y_size = len(w_grid), len(y_grid)
    vz = jnp.zeros((w_size, y_size))
    _T = lambda v: T_vmap(v, model)
    v_star = successive_approx_jax(_T, vz, tolerance=tol)
    return v_star, get_greedy(v_star, model)
print("Starting VFI using JAX / vmap.")
start_time = time.time()
v_star_vmap, σ_star_vmap = value_iteration_vmap(model)
jax_vmap_elapsed = time.time() - start_time
print(f"VFI completed in {jax_vmap_elapsed} seconds.")
print("Starting VFI using JAX / vmap.")
start_time = time.time()
v_star_vmap, σ_star_vmap = value_iteration_vmap(model)
jax_vmap_elapsed = time.time() - start_time
print(f"VFI completed in {jax_vmap_elapsed} seconds.")
print(jnp.allclose(v_star_vmap, v_star_jax))
_report({"jit(successive_approx_jax)"}, 4)
