# source: https://github.com/QuantEcon/lecture-jax/pull/314
# expect: shape-churn at line 62
# runtime: COMPILES 4 CALLS 120
# why: project_cross_section and compute_freq start the inventory with jnp.full((num_firms,), x_init) for a Python int, a weakly typed int32 array, while the jitted updates return float32, so update_cross_section and update_stock each compile twice for the same shapes.
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
# QuantEcon/lecture-jax PR #314: inventory_dynamics, eager loops over jitted updates started from jnp.full of a Python int
import numpy as np
import jax
import jax.numpy as jnp
from jax import random, lax
from typing import NamedTuple

class ModelParameters(NamedTuple):
    s: int = 10
    S: int = 100
    μ: float = 1.0
    σ: float = 0.5

@jax.jit
def update_cross_section(params: ModelParameters,
                         X_vec: jnp.ndarray, 
                         D: jnp.ndarray) -> jnp.ndarray:
    """
    Update by one period a cross-section of firms with inventory levels given by
    X_vec, given the vector of demand shocks in D. Here D[i] is the demand shock
    for firm i with current inventory X_vec[i].

    """
    # Unpack
    s, S = params.s, params.S
    # Restock if the inventory is below the threshold
    X_new = jnp.where(X_vec <= s, 
                      jnp.maximum(S - D, 0), 
                      jnp.maximum(X_vec - D, 0))
    return X_new

def project_cross_section(params: ModelParameters, 
                          x_init: jnp.ndarray, 
                          T: int, 
                          key: jnp.ndarray, 
                          num_firms: int = 50_000) -> jnp.ndarray:
    # Set up initial distribution
    X_vec = jnp.full((num_firms, ), x_init)
    # Loop
    for i in range(T):
        key, subkey = random.split(key)
        Z = random.normal(subkey, shape=(num_firms, ))
        D = jnp.exp(params.μ + params.σ * Z)

        X_vec = update_cross_section(params, X_vec, D)

    return X_vec

params = ModelParameters()
x_init = 50
T = 20  # scaffolding: cut down from 500
# Initialize random number generator
key = random.PRNGKey(10)

X_vec = project_cross_section(
    params, x_init, T, key, num_firms=5_000).block_until_ready()  # scaffolding: timing removed, num_firms cut down

# Define a jitted function for each update
@jax.jit
def update_stock(n_restock, X, params, D):
    n_restock = jnp.where(X <= params.s,
                          n_restock + 1,
                          n_restock)
    X = jnp.where(X <= params.s,
                  jnp.maximum(params.S - D, 0),
                  jnp.maximum(X - D, 0))
    return n_restock, X

def compute_freq(params, key,
                 x_init=70,
                 sim_length=50,
                 num_firms=10_000):  # scaffolding: cut down from 1_000_000

    # Prepare initial arrays
    X = jnp.full((num_firms, ), x_init)

    # Stack the restock counter on top of the inventory
    n_restock = jnp.zeros((num_firms, ))

    # Use a for loop to perform the calculations on all states
    for i in range(sim_length):
        key, subkey = random.split(key)
        Z = random.normal(subkey, shape=(num_firms, ))
        D = jnp.exp(params.μ + params.σ * Z)
        n_restock, X = update_stock(
            n_restock, X, params, D)

    return jnp.mean(n_restock > 1, axis=0)

key = random.PRNGKey(27)
freq = compute_freq(params, key).block_until_ready()
freq = compute_freq(params, key).block_until_ready()  # scaffolding: timing prints removed
_report({"jit(update_cross_section)", "jit(update_stock)"}, T + 2 * 50)  # scaffolding
