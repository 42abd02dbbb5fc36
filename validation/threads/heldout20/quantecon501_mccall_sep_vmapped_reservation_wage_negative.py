# source: https://github.com/QuantEcon/lecture-python.myst/pull/501
# expect: none
# runtime: COMPILES 3 CALLS 3
# why: the jitted compute_reservation_wage is vmapped over c, then β, then α, each time building Model(...) with one batched field; the three sweeps have three different batching signatures, so three compiles for three vmapped calls is one per distinct program.
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
# QuantEcon/lecture-python.myst PR #501: mccall_model_with_separation after the JAX conversion, vmapped comparative statics
import numpy as np
import jax
import jax.numpy as jnp
from typing import NamedTuple
from scipy.stats import betabinom  # scaffolding


class BetaBinomial:  # scaffolding: stand-in for quantecon.distributions.BetaBinomial (not installed)
    def __init__(self, n, a, b):  # scaffolding
        self.n, self.a, self.b = n, a, b  # scaffolding

    def pdf(self):  # scaffolding
        return betabinom(self.n, self.a, self.b).pmf(np.arange(self.n + 1))  # scaffolding

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
def update(model, v, d):
    " One update on the Bellman equations. "
    α, β, c, w, q = model.α, model.β, model.c, model.w, model.q
    v_new = u(w) + β * ((1 - α) * v + α * d)
    d_new = jnp.sum(jnp.maximum(v, u(c) + β * d) * q)
    return v_new, d_new

@jax.jit
def solve_model(model, tol=1e-5, max_iter=2000):
    " Iterates to convergence on the Bellman equations. "
    
    def cond_fun(state):
        v, d, i, error = state
        return jnp.logical_and(error > tol, i < max_iter)
    
    def body_fun(state):
        v, d, i, error = state
        v_new, d_new = update(model, v, d)
        error_1 = jnp.max(jnp.abs(v_new - v))
        error_2 = jnp.abs(d_new - d)
        error_new = jnp.maximum(error_1, error_2)
        return v_new, d_new, i + 1, error_new
    
    # Initial state: (v, d, i, error)
    v_init = jnp.ones_like(model.w)
    d_init = 1.0
    i_init = 0
    error_init = tol + 1
    
    init_state = (v_init, d_init, i_init, error_init)
    final_state = jax.lax.while_loop(cond_fun, body_fun, init_state)
    v_final, d_final, _, _ = final_state
    
    return v_final, d_final

model = Model()
v, d = solve_model(model)
h = u(model.c) + model.β * d


@jax.jit
def compute_reservation_wage(model):
    """
    Computes the reservation wage of an instance of the McCall model
    by finding the smallest w such that v(w) >= h. If no such w exists, then
    w_bar is set to np.inf.
    """
    
    v, d = solve_model(model)
    h = u(model.c) + model.β * d
    i = jnp.searchsorted(v, h, side='left')
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
_report({"jit(compute_reservation_wage)"}, 3)  # scaffolding
