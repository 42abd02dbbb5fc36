# source: https://github.com/QuantEcon/cef_2024_singapore/blob/e26e069a5f0321b04fdac5354d1ff749cfe421a6/notebooks/ez_preferences.ipynb
# expect: jit-in-loop-or-body at line 81
# runtime: COMPILES 5 CALLS 5
# why: newton_solver defines its Newton map Q with @jax.jit inside the function body, closing over the operator K, so every call builds a new jitted Q and compiles it again: once for the first solve and once per sigma in the exercise loop (5 compiles for 5 solves).

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
from collections import namedtuple
import time


class qe:  # scaffolding: stand-in for quantecon.tauchen (quantecon is not installed)
    @staticmethod
    def tauchen(n, rho, sigma, mu=0.0, n_std=3):
        std_y = np.sqrt(sigma**2 / (1 - rho**2))
        x = np.linspace(-n_std * std_y, n_std * std_y, n)
        step = x[1] - x[0]
        from math import erf, sqrt
        cdf = np.vectorize(lambda z: 0.5 * (1 + erf(z / sqrt(2))))
        P = np.empty((n, n))
        for i in range(n):
            z = x - rho * x[i]
            P[i] = cdf((z + step / 2) / sigma) - cdf((z - step / 2) / sigma)
            P[i, 0] = cdf((x[0] - rho * x[i] + step / 2) / sigma)
            P[i, -1] = 1 - cdf((x[-1] - rho * x[i] - step / 2) / sigma)
        return namedtuple("MC", "state_values P")(x + mu, P)


jax.config.update("jax_enable_x64", True)

def successive_approx(K, v_init, max_iter=50_000, tol=1e-8):
    "Compute the fixed point of K by iterating from guess v_init."
    
    i, error = 0, tol + 1
    v = v_init
    while error > tol and i < max_iter:
        v_new = K(v)
        error = np.max(np.abs(v_new - v))
        i += 1
        v = v_new
    return v, i


def newton_solver(K, v_init, max_iter=10_000, tol=1e-8):
    """
    Apply Newton's algorithm to find a fixed point of K. 

    We use a root-finding operation on F(v) = K(v) - v, which requires 
    iterating with the map 

        Q(v) = v - J(v)^{-1} F(v).

    Here J(v) is the Jacobian of F evaluated at v.

    """
    F = lambda v: K(v) - v
    @jax.jit
    def Q(v):
        J = jax.jacobian(F) 
        return v - jnp.linalg.solve(J(v), F(v))
    return successive_approx(Q, v_init, tol=tol, max_iter=max_iter)

c = jnp.exp

Model = namedtuple('Model', ('ρ', 'γ', 'β', 'α', 'σ', 'x_vals', 'c_vals', 'P'))

def create_ez_model(ρ=1.6,
                    γ=-2.0,
                    α=0.9,
                    β=0.998,
                    σ=0.1,
                    n=200):  # scaffolding: grid cut from 1_000
    mc = qe.tauchen(n, α, σ)
    x_vals, P = jnp.exp(mc.state_values), mc.P
    c_vals = c(x_vals)
    P = jnp.array(P)
    return Model(ρ, γ, β, α, σ, x_vals, c_vals, P)

@jax.jit
def K(v, model):
    ρ, γ, β, α, σ, x_vals, c_vals, P = model
    return (c_vals**ρ + β * (P @ v**γ)**(ρ / γ))**(1 / ρ)

model = create_ez_model()
ρ, γ, β, α, σ, x_vals, c_vals, P = model
v_init = c_vals

start_time = time.time()
v_newton, num_iter = newton_solver(lambda v: K(v, model), v_init)
newton_time = time.time() - start_time
print(f"Successive approximation converged in {num_iter} iterations.")
print(f"Execution time = {newton_time:.5} seconds.")

v_init = c_vals
sig_vals = 0.05, 0.075, 0.1, 0.125

for σ in sig_vals:
    model= create_ez_model(σ=σ, γ=0.5)
    v, _ = newton_solver(lambda v: K(v, model), v_init)
    v_init = v
_report({"jit(Q)"}, 5)  # scaffolding
