# source: https://github.com/QuantEcon/lecture-python.myst/pull/664
# expect: none
# runtime: COMPILES 2 CALLS 4
# why: stock_update, rate_update and compute_matrices carry their own @jax.jit yet only run inside the jitted generate_path scan, which takes the update function as a static argument: one compile per update function, reused across models (two compiles for four calls).
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
from typing import NamedTuple
from functools import partial


class LakeModel(NamedTuple):
    """
    Parameters for the lake model
    """
    λ: float = 0.283
    α: float = 0.013
    b: float = 0.0124
    d: float = 0.00822


@partial(jax.jit, static_argnames=['f', 'num_steps'])
def generate_path(f, initial_state, num_steps, **kwargs):
    """
    Generate a time series by repeatedly applying an update rule.

    Given a map f, initial state x_0, and a set of model parameter θ, this
    function computes and returns the sequence {x_t}_{t=0}^{T-1} when

        x_{t+1} = f(x_t, t, θ) 

    Args:
        f: Update function mapping (x_t, t, θ) -> x_{t+1}
        initial_state: Initial state x_0
        num_steps: Number of time steps T to simulate
        **kwargs: Optional extra arguments passed to f

    Returns:
        Array of shape (dim(x), T) containing the time series path
        [x_0, x_1, x_2, ..., x_{T-1}]
    """

    def update_wrapper(state, t):
        """
        Wrapper function that adapts f for use with JAX scan.
        """
        next_state = f(state, t, **kwargs)
        return next_state, state

    _, path = jax.lax.scan(update_wrapper,
                    initial_state, jnp.arange(num_steps))
    return path.T


@jax.jit
def compute_matrices(model: LakeModel):
    """Compute the transition matrices A and A_hat for the model."""
    λ, α, b, d = model.λ, model.α, model.b, model.d
    g = b - d
    A = jnp.array([[(1-d) * (1-λ) + b,      (1 - d) * α + b],
                   [        (1-d) * λ,      (1 - d) * (1 - α)]])
    A_hat = A / (1 + g)
    return A, A_hat, g


@jax.jit
def stock_update(current_stocks, time_step, model):
    """
    Apply transition matrix to get next period's stocks.
    """
    A, A_hat, g = compute_matrices(model)
    next_stocks = A @ current_stocks
    return next_stocks

@jax.jit
def rate_update(current_rates, time_step, model):
    """
    Apply normalized transition matrix for next period's rates.
    """
    A, A_hat, g = compute_matrices(model)
    next_rates = A_hat @ current_rates
    return next_rates


model = LakeModel()
model_new = LakeModel(α=0.03)


N_0 = 150      # Population
e_0 = 0.92     # Initial employment rate
u_0 = 1 - e_0  # Initial unemployment rate
T = 50         # Simulation length

U_0 = u_0 * N_0
E_0 = e_0 * N_0

X_0 = jnp.array([U_0, E_0])
X_path = generate_path(stock_update, X_0, T, model=model)


@jax.jit
def rate_steady_state(model: LakeModel):
    r"""
    Finds the steady state of the system :math:`x_{t+1} = \hat A x_{t}`
    by computing the eigenvector corresponding to the unit eigenvalue.
    """
    A, A_hat, g = compute_matrices(model)
    eigenvals, eigenvec = jnp.linalg.eig(A_hat)
    
    # Find the eigenvector corresponding to eigenvalue 1
    unit_idx = jnp.argmin(jnp.abs(eigenvals - 1.0))

    # Get the corresponding eigenvector
    steady_state = jnp.real(eigenvec[:, unit_idx])
    
    # Normalize to ensure positive values and sum to 1
    steady_state = jnp.abs(steady_state)
    steady_state = steady_state / jnp.sum(steady_state)
    
    return steady_state


xbar = rate_steady_state(model)
x_0 = jnp.array([u_0, e_0])
x_path = generate_path(rate_update, x_0, T, model=model)


model_initial = LakeModel()
x0 = rate_steady_state(model_initial)


N0 = 100
T = 50


model_ex2 = LakeModel(λ=0.2)
xbar = rate_steady_state(model_ex2)  # new steady state

# Simulate paths
X_path = generate_path(stock_update, x0 * N0, T, model=model_ex2)
x_path = generate_path(rate_update, x0, T, model=model_ex2)

_report({"jit(generate_path)"}, 4)  # scaffolding: four generate_path calls
