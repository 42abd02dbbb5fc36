# source: https://github.com/QuantEcon/lecture-python.myst/pull/663
# expect: none
# runtime: COMPILES 1 CALLS 25
# why: The comparative-statics loop rebuilds a McCallModel for every (c, beta) pair and calls the jitted solver, but the model is a NamedTuple of arrays passed as a traced pytree, so every grid point reuses one compile.
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
import numpy as np
import jax
import jax.numpy as jnp
from typing import NamedTuple
from functools import partial
from scipy.stats import betabinom


class BetaBinomial:  # scaffolding: quantecon.distributions.BetaBinomial stand-in
    def __init__(self, n, a, b):
        self.n, self.a, self.b = n, a, b

    def pdf(self):
        return betabinom(self.n, self.a, self.b).pmf(np.arange(self.n + 1))


n, a, b = 50, 200, 100                        # default parameters
q_default = jnp.array(BetaBinomial(n, a, b).pdf())


w_min, w_max = 10, 60
w_default = jnp.linspace(w_min, w_max, n+1)


class McCallModel(NamedTuple):
    c: float = 25               # unemployment compensation
    β: float = 0.99             # discount factor  
    w: jnp.ndarray = w_default  # array of wage values, w[i] = wage at state i
    q: jnp.ndarray = q_default  # array of probabilities


def T(model: McCallModel, v: jnp.ndarray):
    c, β, w, q = model
    accept = w / (1 - β)
    reject = c + β * v @ q
    return jnp.maximum(accept, reject)


@jax.jit
def compute_res_wage_jitted(
        model: McCallModel,   # instance containing default parameters
        v_init: jnp.ndarray,  # initial condition for iteration
        tol: float=1e-6,      # error tolerance
        max_iter: int=500,    # maximum number of iterations for loop
    ):
    c, β, w, q = model
    i = 0
    error = tol + 1 
    initial_state = v_init, i, error
    
    def cond(loop_state):
        v, i, error = loop_state
        return jnp.logical_and(i < max_iter, error > tol)

    def update(loop_state):
        v, i, error = loop_state
        v_next = T(model, v)
        error = jnp.max(jnp.abs(v_next - v))
        i += 1
        new_loop_state = v_next, i, error
        return new_loop_state
    
    final_state = jax.lax.while_loop(cond, update, initial_state)
    v, i, error = final_state

    res_wage = (1 - β) * (c + β * v @ q)
    return v, res_wage


grid_size = 5  # scaffolding: the lecture uses 25
c_vals = jnp.linspace(10.0, 30.0, grid_size)
β_vals = jnp.linspace(0.9, 0.99, grid_size)

res_wage_matrix = np.empty((grid_size, grid_size))
model = McCallModel()
v_init = model.w / (1 - model.β)

for i, c in enumerate(c_vals):
    for j, β in enumerate(β_vals):
        model = McCallModel(c=c, β=β)
        v, res_wage = compute_res_wage_jitted(model, v_init)
        v_init = v
        res_wage_matrix[i, j] = res_wage

_report({"jit(compute_res_wage_jitted)"}, grid_size * grid_size)  # scaffolding
