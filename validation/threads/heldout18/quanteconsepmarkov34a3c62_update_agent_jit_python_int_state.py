# source: https://github.com/QuantEcon/lecture-python.myst/commit/34a3c628db5f828ad5c7c398b9e4845a830e0535
# expect: shape-churn at line 223
# runtime: COMPILES 2 CALLS 200
# why: simulate_employment_path starts with Python ints status = 0 and wage_idx = 0 (weakly typed) and then feeds back the int32 arrays that the jitted update_agent returns, so update_agent compiles a second time.

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
import numpy as np  # scaffolding
from jax import lax
from typing import NamedTuple
from functools import partial
from scipy.stats import norm  # scaffolding


# scaffolding: quantecon is not installed; Tauchen's method as in quantecon.markov.tauchen (n_std=3)
class _MC:
    def __init__(self, state_values, P):
        self.state_values, self.P = state_values, P


def tauchen(n, rho, sigma, mu=0.0, n_std=3):
    std_y = np.sqrt(sigma**2 / (1 - rho**2))
    x_max = n_std * std_y
    x = np.linspace(-x_max, x_max, n)
    step = x[1] - x[0]
    half_step = 0.5 * step
    P = np.empty((n, n))
    for i in range(n):
        z = rho * x[i]
        P[i, 0] = norm.cdf((x[0] - z + half_step) / sigma)
        P[i, n - 1] = 1 - norm.cdf((x[n - 1] - z - half_step) / sigma)
        for j in range(1, n - 1):
            P[i, j] = norm.cdf((x[j] - z + half_step) / sigma) - norm.cdf((x[j] - z - half_step) / sigma)
    return _MC(x + mu / (1 - rho), P)


# lectures/mccall_model_with_sep_markov.md before the commit (plots left out)
def u(c, γ):
    return (c**(1 - γ) - 1) / (1 - γ)


class Model(NamedTuple):
    n: int
    w_vals: jnp.ndarray
    P: jnp.ndarray
    P_cumsum: jnp.ndarray  
    β: float
    c: float
    α: float
    γ: float


def create_js_with_sep_model(
        n: int = 200,          # wage grid size
        ρ: float = 0.9,        # wage persistence
        ν: float = 0.2,        # wage volatility
        β: float = 0.96,       # discount factor
        α: float = 0.05,       # separation rate
        c: float = 1.0,        # unemployment compensation
        γ: float = 1.5         # utility parameter
    ) -> Model:
    """
    Creates an instance of the job search model with separation.

    """
    mc = tauchen(n, ρ, ν)
    w_vals, P = jnp.exp(jnp.array(mc.state_values)), jnp.array(mc.P)
    P_cumsum = jnp.cumsum(P, axis=1)
    return Model(n, w_vals, P, P_cumsum, β, c, α, γ)


def T(v: jnp.ndarray, model: Model) -> jnp.ndarray:
    """
    The Bellman operator for v_u.

    """
    n, w_vals, P, P_cumsum, β, c, α, γ = model
    d = 1 / (1 - β * (1 - α))
    accept = d * (u(w_vals, γ) + α * β * P @ v)
    reject = u(c, γ) + β * P @ v
    return jnp.maximum(accept, reject)


@jax.jit
def vfi(
        model: Model,
        tolerance: float = 1e-6,   # Error tolerance
        max_iter: int = 100_000,   # Max iteration bound
    ):

    v_init = jnp.zeros(model.w_vals.shape)

    def cond(loop_state):
        v, error, i = loop_state
        return (error > tolerance) & (i <= max_iter)

    def update(loop_state):
        v, error, i = loop_state
        v_new = T(v, model)
        error = jnp.max(jnp.abs(v_new - v))
        new_loop_state = v_new, error, i + 1
        return new_loop_state

    initial_state = (v_init, tolerance + 1, 1)
    final_loop_state = lax.while_loop(cond, update, initial_state)
    v_final, error, i = final_loop_state

    return v_final


@jax.jit
def get_reservation_wage(v: jnp.ndarray, model: Model) -> float:
    """
    Calculate the reservation wage directly from the value function.

    The reservation wage is the lowest wage w where accepting (v_e(w))
    is at least as good as rejecting (u(c) + β(Pv)(w)).

    Parameters:
    - v: Value function v_u
    - model: Model instance containing parameters

    Returns:
    - Reservation wage (lowest wage for which acceptance is optimal)
    """
    n, w_vals, P, P_cumsum, β, c, α, γ = model

    # Compute accept and reject values
    d = 1 / (1 - β * (1 - α))
    accept = d * (u(w_vals, γ) + α * β * P @ v)
    reject = u(c, γ) + β * P @ v

    # Find where acceptance becomes optimal
    should_accept = accept >= reject
    first_accept_idx = jnp.argmax(should_accept)

    # If no acceptance (all False), return infinity
    # Otherwise return the wage at the first acceptance index
    return jnp.where(jnp.any(should_accept), w_vals[first_accept_idx], jnp.inf)


@jax.jit
def update_agent(key, status, wage_idx, model, w_star):
    """
    Updates an agent's employment status and current wage.

    Parameters:
    - key: JAX random key
    - status: Current employment status (0 or 1)
    - wage_idx: Current wage, recorded as an array index
    - model: Model instance
    - w_star: Reservation wage

    """
    n, w_vals, P, P_cumsum, β, c, α, γ = model

    key1, key2 = jax.random.split(key)
    # Use precomputed cumulative sum for efficient sampling
    # via the inverse transform method.
    new_wage_idx = jnp.searchsorted(
        P_cumsum[wage_idx, :], jax.random.uniform(key1)
    )
    separation_occurs = jax.random.uniform(key2) < α
    # Accept if current wage meets or exceeds reservation wage
    accepts = w_vals[wage_idx] >= w_star

    # If employed: status = 1 if no separation, 0 if separation
    # If unemployed: status = 1 if accepts, 0 if rejects
    next_status = jnp.where(
        status,
        1 - separation_occurs.astype(jnp.int32),  # employed path
        accepts.astype(jnp.int32)                 # unemployed path
    )

    # If employed: wage = current if no separation, new if separation
    # If unemployed: wage = current if accepts, new if rejects
    next_wage = jnp.where(
        status,
        jnp.where(separation_occurs, new_wage_idx, wage_idx),  # employed path
        jnp.where(accepts, wage_idx, new_wage_idx)             # unemployed path
    )

    return next_status, next_wage


def simulate_employment_path(
        model: Model,     # Model details
        w_star: float,    # Reservation wage
        T: int = 2_000,   # Simulation length
        seed: int = 42    # Set seed for simulation
    ):
    """
    Simulate employment path for T periods starting from unemployment.

    """
    key = jax.random.PRNGKey(seed)
    # Unpack model
    n, w_vals, P, P_cumsum, β, c, α, γ = model

    # Initial conditions
    status = 0
    wage_idx = 0

    wage_path = []
    status_path = []

    for t in range(T):
        wage_path.append(w_vals[wage_idx])
        status_path.append(status)

        key, subkey = jax.random.split(key)
        status, wage_idx = update_agent(
            subkey, status, wage_idx, model, w_star
        )

    return jnp.array(wage_path), jnp.array(status_path)


model = create_js_with_sep_model()
# Calculate reservation wage for plotting
v_star = vfi(model)
w_star = get_reservation_wage(v_star, model)
wage_path, employment_status = simulate_employment_path(model, w_star, T=200)  # scaffolding: T=2_000 by default
_report({"jit(update_agent)"}, 200)  # scaffolding
