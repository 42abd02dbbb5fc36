# source: https://github.com/QuantEcon/imf_2024/blob/04ed87d64fac2c78ab3f21c9f073d16dd582702c/tuesday/afternoon/egm.md
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: K_egm is jitted with the sizes tuple static, calls np.reshape on the traced savings grid and is driven by a Python while loop that checks a concrete error; np.reshape dispatches to the tracer's reshape, the static tuple is hashable and unchanged, so K_egm compiles once over two solves.

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
# (quantecon, matplotlib and numba imports dropped: quantecon is not installed, plots and the Numba version cut)


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


def ifp(R=1.01,             # gross interest rate
        β=0.99,             # discount factor
        γ=1.5,              # CRRA preference parameter
        s_max=16,           # savings grid max
        s_size=200,         # savings grid size
        ρ=0.99,             # income persistence
        ν=0.02,             # income volatility
        y_size=25):         # income grid size
  
    # require R β < 1 for convergence
    assert R * β < 1, "Stability condition failed."
    # Create income Markov chain
    mc = qe.tauchen(y_size, ρ, ν)
    y_grid, P = jnp.exp(mc.state_values), mc.P
    # Shift to JAX arrays
    P, y_grid = jax.device_put((P, y_grid))
    s_grid = jnp.linspace(0, s_max, s_size)
    # Pack and return
    constants = β, R, γ
    sizes = s_size, y_size
    arrays = s_grid, y_grid, P
    return constants, sizes, arrays


def K_egm(a_in, σ_in, constants, sizes, arrays):
    """
    The vectorized operator K using EGM.

    """
    
    # Unpack
    β, R, γ = constants
    s_size, y_size = sizes
    s_grid, y_grid, P = arrays
    
    def u_prime(c):
        return c**(-γ)

    def u_prime_inv(u):
            return u**(-1/γ)

    # Linearly interpolate σ(a, y)
    def σ(a, y):
        return jnp.interp(a, a_in[:, y], σ_in[:, y])
    σ_vec = jnp.vectorize(σ)

    # Broadcast and vectorize
    y_hat = jnp.reshape(y_grid, (1, 1, y_size))
    y_hat_idx = jnp.reshape(jnp.arange(y_size), (1, 1, y_size))
    s = jnp.reshape(s_grid, (s_size, 1, 1))
    P = jnp.reshape(P, (1, y_size, y_size))
    
    # Evaluate consumption choice
    a_next = R * s + y_hat
    σ_next = σ_vec(a_next, y_hat_idx)
    up = u_prime(σ_next)
    E = jnp.sum(up * P, axis=-1)
    c = u_prime_inv(β * R * E)

    # Set up a column vector with zero in the first row and ones elsewhere
    e_0 = jnp.ones(s_size) - jnp.identity(s_size)[:, 0]
    e_0 = jnp.reshape(e_0, (s_size, 1))

    # The policy is computed consumption with the first row set to zero
    σ_out = c * e_0

    # Compute a_out by a = s + c
    a_out = np.reshape(s_grid, (s_size, 1)) + σ_out
    
    return a_out, σ_out


K_egm_jax = jax.jit(K_egm, static_argnums=(3,))


def successive_approx_jax(model,        
            tol=1e-5,
            max_iter=100_000,
            verbose=True,
            print_skip=25):

    # Unpack
    constants, sizes, arrays = model
    β, R, γ = constants
    s_size, y_size = sizes
    s_grid, y_grid, P = arrays
    
    # Initial condition is to consume all in every state
    σ_init = jnp.repeat(s_grid, y_size)
    σ_init = jnp.reshape(σ_init, (s_size, y_size))
    a_init = jnp.copy(σ_init)
    a_vec, σ_vec = a_init, σ_init
    
    i = 0
    error = tol + 1

    while i < max_iter and error > tol:
        a_new, σ_new = K_egm_jax(a_vec, σ_vec, constants, sizes, arrays)    
        error = jnp.max(jnp.abs(σ_vec - σ_new))
        i += 1
        if verbose and i % print_skip == 0:
            print(f"Error at iteration {i} is {error}.")
        a_vec, σ_vec = jnp.copy(a_new), jnp.copy(σ_new)

    if error > tol:
        print("Failed to converge!")
    else:
        print(f"\nConverged in {i} iterations.")

    return a_new, σ_new


model = ifp(s_size=50, y_size=5)  # scaffolding: grids cut from 200 x 25
a_star_egm_jax, σ_star_egm_jax = successive_approx_jax(model,
                                                       print_skip=100, max_iter=300)  # scaffolding: max_iter cut
# (Numba cross-check and plot cut)
a_star_egm_jax, σ_star_egm_jax = successive_approx_jax(model,
                                         print_skip=1000, max_iter=300)  # scaffolding: max_iter cut
_report({"jit(K_egm)"}, 2)
