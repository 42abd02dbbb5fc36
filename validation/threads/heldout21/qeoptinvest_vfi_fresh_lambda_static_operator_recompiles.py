# source: https://jax.quantecon.org/opt_invest.html
# expect: changing-static at line 143
# runtime: COMPILES 4 CALLS 4
# why: value_function_iteration passes a fresh lambda _T as the static operator of the jitted successive_approx_jax, so all four VFI runs, including the two 'without compile time' reruns, compile again: 4 compiles / 4 calls.
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
# import quantecon as qe  # scaffolding: not installed; stand-in below
import jax
import jax.numpy as jnp
# import matplotlib.pyplot as plt  # scaffolding: not installed (plots left out)
from time import time
import numpy as np  # scaffolding: used by the tauchen stand-in

jax.config.update("jax_enable_x64", True)

class _MC:  # scaffolding: stand-in for quantecon's MarkovChain result of qe.tauchen (quantecon not installed)
    pass  # scaffolding
def _tauchen(n, rho, sigma, mu=0.0, n_std=3):  # scaffolding: Tauchen (1986) discretization, as qe.tauchen computes it
    from scipy.stats import norm  # scaffolding
    a_bar = n_std * np.sqrt(sigma**2 / (1 - rho**2))  # scaffolding
    x = np.linspace(-a_bar, a_bar, n)  # scaffolding
    d = x[1] - x[0]  # scaffolding
    P = np.empty((n, n))  # scaffolding
    for i in range(n):  # scaffolding
        z = x - rho * x[i]  # scaffolding
        P[i] = norm.cdf((z + d / 2) / sigma) - norm.cdf((z - d / 2) / sigma)  # scaffolding
        P[i, 0] = norm.cdf((z[0] + d / 2) / sigma)  # scaffolding
        P[i, -1] = 1 - norm.cdf((z[-1] - d / 2) / sigma)  # scaffolding
    mc = _MC()  # scaffolding
    mc.state_values, mc.P = x + mu / (1 - rho), P  # scaffolding
    return mc  # scaffolding
import types  # scaffolding
qe = types.SimpleNamespace(tauchen=_tauchen)  # scaffolding

def create_investment_model(
        r=0.01,                              # Interest rate
        a_0=10.0, a_1=1.0,                   # Demand parameters
        γ=25.0, c=1.0,                       # Adjustment and unit cost
        y_min=0.0, y_max=20.0, y_size=100,   # Grid for output
        ρ=0.9, ν=1.0,                        # AR(1) parameters
        z_size=150):                         # Grid size for shock
    """
    A function that takes in parameters and returns an instance of Model that
    contains data for the investment problem.
    """
    β = 1 / (1 + r)
    y_grid = jnp.linspace(y_min, y_max, y_size)
    mc = qe.tauchen(z_size, ρ, ν)
    z_grid, Q = mc.state_values, mc.P

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

def successive_approx_jax(T,                     # Operator (callable)
                          x_0,                   # Initial condition                
                          tol=1e-6,              # Error tolerance
                          max_iter=10_000):      # Max iteration bound
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

def value_function_iteration(model, tol=1e-5):
    """
    Implements value function iteration.
    """
    params, sizes, arrays = model
    vz = jnp.zeros(sizes)
    _T = lambda v: T(v, params, sizes, arrays)
    v_star = successive_approx_jax(_T, vz, tol=tol)
    return get_greedy(v_star, params, sizes, arrays)

model = create_investment_model()
constants, sizes, arrays = model
β, a_0, a_1, γ, c = constants
y_size, z_size = sizes
y_grid, z_grid, Q = arrays

print("Starting VFI.")
σ_star_vfi = value_function_iteration(model).block_until_ready()  # scaffolding: was %time

# Now time it without compile time
start = time()
σ_star_vfi = value_function_iteration(model).block_until_ready()
vfi_without_compile = time() - start
print(σ_star_vfi)
print(f"VFI completed in {vfi_without_compile} seconds.")

print("Running value function iteration.")
σ_vfi = value_function_iteration(model, tol=1e-5).block_until_ready()  # scaffolding: was %time

# Now time it without compile time
start = time()
σ_vfi = value_function_iteration(model, tol=1e-5).block_until_ready()
vfi_without_compile = time() - start
print(f"VFI completed in {vfi_without_compile} seconds.")
_report({"jit(successive_approx_jax)"}, 4)  # scaffolding
