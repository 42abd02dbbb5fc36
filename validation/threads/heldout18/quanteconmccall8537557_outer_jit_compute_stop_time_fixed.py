# source: https://github.com/QuantEcon/lecture-python.myst/commit/8537557a5af83cadafc9d9eea16350a40b91c603
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: The commit moves jit to compute_stop_time_for_c, the function under vmap; it compiles once and the second run reuses it.

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


from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
from scipy.stats import betabinom  # scaffolding: quantecon.distributions.BetaBinomial is not installed


def BetaBinomial(n, a, b):  # scaffolding: same pdf over 0..n as quantecon's BetaBinomial
    class _D:
        def pdf(self):
            return betabinom(n, a, b).pmf(np.arange(n + 1))
    return _D()


# lectures/mccall_model.md after the commit
n, a, b = 50, 200, 100                        # default parameters
q_default = jnp.array(BetaBinomial(n, a, b).pdf())

w_min, w_max = 10, 60
w_default = jnp.linspace(w_min, w_max, n+1)


class McCallModel(NamedTuple):
    c: float = 25               # unemployment compensation
    β: float = 0.99             # discount factor  
    w: jnp.ndarray = w_default  # array of wage values, w[i] = wage at state i
    q: jnp.ndarray = q_default  # array of probabilities


def compute_reservation_wage_two(
        model: McCallModel,   # instance containing default parameters
        tol: float=1e-5,      # error tolerance
        max_iter: int=500,    # maximum number of iterations for loop
    ):
    c, β, w, q = model
    h = (w @ q) / (1 - β)  # initial condition
    i = 0
    error = tol + 1
    initial_loop_state = i, h, error

    def cond(loop_state):
        i, h, error = loop_state
        return jnp.logical_and(i < max_iter, error > tol)

    def update(loop_state):
        i, h, error = loop_state
        s = jnp.maximum(w / (1 - β), h)
        h_next = c + β * (s @ q)
        error = jnp.abs(h_next - h)
        i_next = i + 1
        new_loop_state = i_next, h_next, error
        return new_loop_state

    final_state = jax.lax.while_loop(cond, update, initial_loop_state)
    i, h, error = final_state

    # Compute and return the reservation wage
    return (1 - β) * h


cdf = jnp.cumsum(q_default)

def compute_stopping_time(w_bar, key):
    """
    Compute stopping time by drawing wages until one exceeds `w_bar`.
    """
    def update(loop_state):
        t, key, accept = loop_state
        key, subkey = jax.random.split(key)
        u = jax.random.uniform(subkey)
        w = w_default[jnp.searchsorted(cdf, u)]
        accept = w >= w_bar
        t = t + 1
        return t, key, accept

    def cond(loop_state):
        _, _, accept = loop_state
        return jnp.logical_not(accept)

    initial_loop_state = (0, key, False)
    t_final, _, _ = jax.lax.while_loop(cond, update, initial_loop_state)
    return t_final


def compute_mean_stopping_time(w_bar, num_reps=2_000, seed=1234):  # scaffolding: num_reps=100000 in the lecture
    """
    Generate a mean stopping time over `num_reps` repetitions by
    drawing from `compute_stopping_time`.
    """
    # Generate a key for each MC replication
    key = jax.random.PRNGKey(seed)
    keys = jax.random.split(key, num_reps)

    # Vectorize compute_stopping_time and evaluate across keys
    compute_fn = jax.vmap(compute_stopping_time, in_axes=(None, 0))
    obs = compute_fn(w_bar, keys)

    # Return mean stopping time
    return jnp.mean(obs)

c_vals = jnp.linspace(10, 40, 25)

@jax.jit
def compute_stop_time_for_c(c):
    """Compute mean stopping time for a given compensation value c."""
    model = McCallModel(c=c)
    w_bar = compute_reservation_wage_two(model)
    return compute_mean_stopping_time(w_bar)

# Vectorize across all c values
stop_times = jax.vmap(compute_stop_time_for_c)(c_vals)
stop_times = jax.vmap(compute_stop_time_for_c)(c_vals)  # scaffolding: the cell run a second time
print("mean durations:", np.round(np.asarray(stop_times)[[0, 12, 24]], 2))  # scaffolding
_report({"jit(compute_stop_time_for_c)"}, 2)  # scaffolding
