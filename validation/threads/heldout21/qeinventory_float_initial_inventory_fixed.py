# source: https://jax.quantecon.org/inventory_dynamics.html
# expect: none
# runtime: COMPILES 1 CALLS 100
# why: with the initial cross-section built as float32 the carried inventories keep one dtype, so update_cross_section compiles once: 1 compile / 100 calls.
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
# import matplotlib.pyplot as plt  # scaffolding: not installed (plots left out)
import numpy as np
import jax
import jax.numpy as jnp
from jax import random, lax
from typing import NamedTuple
from time import time

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
    X_vec = jnp.full((num_firms, ), x_init, dtype=jnp.float32)  # scaffolding: fixed twin, the initial cross-section built as float32
    # Loop
    for i in range(T):
        key, subkey = random.split(key)
        Z = random.normal(subkey, shape=(num_firms, ))
        D = jnp.exp(params.μ + params.σ * Z)

        X_vec = update_cross_section(params, X_vec, D)

    return X_vec

params = ModelParameters()
x_init = 50
T = 50  # scaffolding: 500 in the lecture (CPU time)
# Initialize random number generator
key = random.key(10)

start_time = time()
X_vec = project_cross_section(
    params, x_init, T, key).block_until_ready()
end_time = time()
print(f"Elapsed time: {(end_time - start_time) * 1000:.6f} ms")

start_time = time()
X_vec = project_cross_section(
    params, x_init, T, key).block_until_ready()
end_time = time()
print(f"Elapsed time: {(end_time - start_time) * 1000:.6f} ms")
_report({"jit(update_cross_section)"}, 2 * T)  # scaffolding
