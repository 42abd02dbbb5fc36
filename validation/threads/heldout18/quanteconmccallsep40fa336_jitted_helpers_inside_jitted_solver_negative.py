# source: https://github.com/QuantEcon/lecture-python.myst/commit/40fa3367cf9d8eba05f0703fac164f6198ba1f1d
# expect: none
# runtime: COMPILES 5 CALLS 4
# why: u, compute_v_e and update_d are jitted and called inside the jitted solve_model and compute_reservation_wage; the nested jits are inlined, and the compiles are one per entry point and batching pattern (u once for its top-level call, solve_model once, compute_reservation_wage once per vmapped sweep).

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
from typing import NamedTuple

# scaffolding: quantecon.distributions.BetaBinomial is not installed; same pdf via scipy
from scipy.stats import betabinom


def BetaBinomial(n, a, b):
    class _D:
        def pdf(self):
            return betabinom(n, a, b).pmf(np.arange(n + 1))
    return _D()


# lectures/mccall_model_with_separation.md before the commit (plots left out)
@jax.jit
def u(c, σ=2.0):
    return (c**(1 - σ) - 1) / (1 - σ)


n = 60                                  # n possible outcomes for w
w_default = jnp.linspace(10, 20, n)     # wages between 10 and 20
a, b = 600, 400                         # shape parameters
dist = BetaBinomial(n-1, a, b)          # distribution
q_default = jnp.array(dist.pdf())       # probabilities as a JAX array


class Model(NamedTuple):
    α: float = 0.2              # job separation rate
    β: float = 0.98             # discount factor
    c: float = 6.0              # unemployment compensation
    w: jnp.ndarray = w_default  # wage outcome space
    q: jnp.ndarray = q_default  # probabilities over wage offers


@jax.jit
def compute_v_e(model, d):
    " Compute v_e from d using the closed-form expression. "
    α, β, w = model.α, model.β, model.w
    return (u(w) + β * α * d) / (1 - β * (1 - α))


@jax.jit
def update_d(model, d):
    " One update of the scalar d. "
    α, β, c, w, q = model.α, model.β, model.c, model.w, model.q
    v_e = compute_v_e(model, d)
    d_new = jnp.maximum(v_e, u(c) + β * d) @ q
    return d_new

@jax.jit
def solve_model(model, tol=1e-5, max_iter=2000):
    " Iterates to convergence on the Bellman equations. "

    def cond_fun(state):
        d, i, error = state
        return jnp.logical_and(error > tol, i < max_iter)

    def body_fun(state):
        d, i, error = state
        d_new = update_d(model, d)
        error_new = jnp.abs(d_new - d)
        return d_new, i + 1, error_new

    # Initial state: (d, i, error)
    d_init = 1.0
    i_init = 0
    error_init = tol + 1

    init_state = (d_init, i_init, error_init)
    final_state = jax.lax.while_loop(cond_fun, body_fun, init_state)
    d_final, _, _ = final_state

    # Compute v_e from the converged d
    v_e_final = compute_v_e(model, d_final)

    return v_e_final, d_final


model = Model()
v_e, d = solve_model(model)
v_u_star = u(model.c) + model.β * d


@jax.jit
def compute_reservation_wage(model):
    """
    Computes the reservation wage of an instance of the McCall model
    by finding the smallest w such that v_e(w) >= v_u^*. If no such w exists, then
    w_bar is set to np.inf.
    """

    v_e, d = solve_model(model)
    v_u_star = u(model.c) + model.β * d
    i = jnp.searchsorted(v_e, v_u_star, side='left')
    w_bar = jnp.where(i >= len(model.w), jnp.inf, model.w[i])
    return w_bar


grid_size = 25
c_vals = jnp.linspace(2, 12, grid_size)         # unemployment compensation
β_vals = jnp.linspace(0.8, 0.99, grid_size)     # discount factors
α_vals = jnp.linspace(0.05, 0.5, grid_size)     # separation rate


def compute_res_wage_given_c(c):
    model = Model(c=c)
    w_bar = compute_reservation_wage(model)
    return w_bar

w_bar_vals = jax.vmap(compute_res_wage_given_c)(c_vals)


def compute_res_wage_given_beta(β):
    model = Model(β=β)
    w_bar = compute_reservation_wage(model)
    return w_bar

w_bar_vals = jax.vmap(compute_res_wage_given_beta)(β_vals)


def compute_res_wage_given_alpha(α):
    model = Model(α=α)
    w_bar = compute_reservation_wage(model)
    return w_bar

w_bar_vals = jax.vmap(compute_res_wage_given_alpha)(α_vals)
_report({"jit(solve_model)", "jit(compute_reservation_wage)", "jit(update_d)", "jit(compute_v_e)", "jit(u)"}, 4)  # scaffolding: one solve and three vmapped sweeps
