# source: https://github.com/QuantEcon/lecture-jax/issues/243
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: B, T and get_greedy carry their own @jax.jit (B is then vmapped twice) and are only called inside the jitted solve_inventory_model; the inner jits are inlined into the one top-level program, so two solves compile once (the issue asks to drop them for fusion, not because they recompile).
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


from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
from scipy.stats import norm  # scaffolding


class _MC(NamedTuple):  # scaffolding: quantecon.tauchen (quantecon not installed)
    state_values: np.ndarray
    P: np.ndarray


class qe:  # scaffolding
    @staticmethod
    def tauchen(n, rho, sigma, mu=0.0, n_std=3):
        std_y = np.sqrt(sigma**2 / (1 - rho**2))
        x = np.linspace(-n_std * std_y, n_std * std_y, n)
        step = x[1] - x[0]
        P = np.empty((n, n))
        for i in range(n):
            z = x - rho * x[i]
            P[i] = norm.cdf((z + step / 2) / sigma) - norm.cdf((z - step / 2) / sigma)
            P[i, 0] = norm.cdf((x[0] - rho * x[i] + step / 2) / sigma)
            P[i, -1] = 1 - norm.cdf((x[-1] - rho * x[i] - step / 2) / sigma)
        return _MC(x + mu / (1 - rho), P)


jax.config.update("jax_enable_x64", True)


# NamedTuple Model
class Model(NamedTuple):
    z_values: jnp.ndarray        # Exogenous shock values
    Q: jnp.ndarray               # Exogenous shock probabilities
    x_values: jnp.ndarray        # Inventory values
    d_values: jnp.ndarray        # Demand values for summation
    ϕ_values: jnp.ndarray        # Demand probabilities
    p: float                     # Demand parameter
    c: float = 0.2               # Unit cost
    κ: float = 0.8               # Fixed cost


def create_sdd_inventory_model(
        ρ: float = 0.98,     # Exogenous state autocorrelation parameter
        ν: float = 0.002,    # Exogenous state volatility parameter
        n_z: int = 10,       # Exogenous state discretization size
        b: float = 0.97,     # Exogenous state offset
        K: int = 100,        # Max inventory
        D_MAX: int = 101,    # Demand upper bound for summation
        p: float = 0.6       
    ) -> Model:
    # Demand
    def demand_pdf(p, d):
        return (1 - p)**d * p
    d_values = jnp.arange(D_MAX)
    ϕ_values = demand_pdf(p, d_values)
    # Exogenous state process
    mc = qe.tauchen(n_z, ρ, ν)
    z_values, Q = map(jnp.array, (mc.state_values + b, mc.P))
    # Endogenous state
    x_values = jnp.arange(K + 1)   # 0, 1, ..., K
    return Model(
        z_values=z_values, Q=Q, 
        x_values=x_values, d_values=d_values, ϕ_values=ϕ_values,
        p=p
    )


@jax.jit
def B(x, z_idx, v, model):
    z_values, Q, x_values, d_values, ϕ_values, p, c, κ = model
    z = z_values[z_idx]
    def _B(a):
        revenue = jnp.sum(jnp.minimum(x, d_values) * ϕ_values)
        profit = revenue - c * a - κ * (a > 0)
        v_R = jnp.sum(v[jnp.maximum(x - d_values, 0) + a].T * ϕ_values, axis=1)
        cv = jnp.sum(v_R * Q[z_idx])
        return profit + z * cv
    a_values = x_values   # Set of possible order sizes
    B_values = jax.vmap(_B)(a_values)
    max_x = len(x_values) - 1
    return jnp.where(a_values <= max_x - x, B_values, -jnp.inf)


B = jax.vmap(B, in_axes=(None, 0, None, None))
B = jax.vmap(B, in_axes=(0, None, None, None))


@jax.jit
def T(v, model):
    """The Bellman operator."""
    z_values, Q, x_values, d_values, ϕ_values, p, c, κ = model
    z_indices = jnp.arange(len(z_values))
    res = B(x_values, z_indices, v, model)
    return jnp.max(res, axis=2)


@jax.jit
def get_greedy(v, model):
    """Get a v-greedy policy.  Returns a zero-based array."""
    z_values, Q, x_values, d_values, ϕ_values, p, c, κ = model
    z_indices = jnp.arange(len(z_values))
    res = B(x_values, z_indices, v, model)
    return jnp.argmax(res, axis=2)


@jax.jit
def solve_inventory_model(v_init, model, max_iter=10_000, tol=1e-6):
    """Use successive_approx to get v_star and then compute greedy."""
    def update(state):
        error, i, v = state
        new_v = T(v, model)
        new_error = jnp.max(jnp.abs(new_v - v))
        new_i = i + 1
        return new_error, new_i, new_v
    def test(state):
        error, i, v = state
        return (i < max_iter) & (error > tol)
    i, error = 0, tol + 1
    initial_state = error, i, v_init
    final_state = jax.lax.while_loop(test, update, initial_state)
    error, i, v_star = final_state
    σ_star = get_greedy(v_star, model)
    return v_star, σ_star


for p_demand in (0.6, 0.5):  # scaffolding: the lecture solves one instance; a second demand parameter added
    model = create_sdd_inventory_model(n_z=4, K=20, D_MAX=21, p=p_demand)  # scaffolding: grids cut from n_z=10, K=100, D_MAX=101
    z_values, Q, x_values, d_values, ϕ_values, p, c, κ = model
    n_z = len(z_values)
    n_x = len(x_values)
    v_init = jnp.zeros((n_x, n_z), dtype=float)
    v_star, σ_star = solve_inventory_model(v_init, model)
print(sorted(set(_COMPILED)), file=__import__("sys").stderr)  # scaffolding
_report({"jit(solve_inventory_model)", "jit(T)", "jit(get_greedy)", "jit(B)"}, 2)  # scaffolding
