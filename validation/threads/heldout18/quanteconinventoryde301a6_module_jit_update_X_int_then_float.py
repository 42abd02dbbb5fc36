# source: https://github.com/QuantEcon/lecture-jax/commit/de301a6d43210431048938c1ef9681287b96b7ba
# expect: shape-churn at line 52
# runtime: COMPILES 2 CALLS 750
# why: The commit moves update_X to module level, but the inventory still starts as an int32 array (x_init = 50) and becomes float32, so update_X still compiles twice.

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
from jax import random, lax
from collections import namedtuple


# lectures/inventory_dynamics.md after the commit (plots and KDE left out)
Firm = namedtuple('Firm', ['s', 'S', 'mu', 'sigma'])
firm = Firm(s=10, S=100, mu=1.0, sigma=0.5)


# Define a jit-compiled function to update X and key
@jax.jit
def update_X(X, firm, D):
    # Restock if the inventory is below the threshold
    res = jnp.where(X <= firm.s,
            jnp.maximum(firm.S - D, 0),
            jnp.maximum(X - D, 0))
    return res


def shift_firms_forward(x_init, firm, sample_dates, 
                        key, num_firms=50_000, sim_length=750):
    
    X = res = jnp.full((num_firms, ), x_init)

    # Use for loop to update X and collect samples
    for i in range(sim_length):
        Z = random.normal(key, shape=(num_firms, ))
        D = jnp.exp(firm.mu + firm.sigma * Z)
        
        X = update_X(X, firm, D)
        _, key = random.split(key)
        
        # draw a sample at the sample dates
        if (i in sample_dates):
          res = jnp.vstack((res, X))

    return res[1:]


x_init = 50
num_firms = 50_000
sample_dates = 10, 50, 250, 500, 750
key = random.PRNGKey(10)

X = shift_firms_forward(x_init, firm, \
                        sample_dates, key).block_until_ready()  # (%time in the lecture)
_report({"jit(update_X)"}, 750)  # scaffolding
