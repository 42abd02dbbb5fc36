# source: https://github.com/QuantEcon/lecture-jax/commit/de301a6d43210431048938c1ef9681287b96b7ba
# expect: shape-churn at line 40
# runtime: COMPILES 2 CALLS 750
# why: x_init = 50 makes the starting inventory an int32 array, and update_X returns float32, so the jitted update_X compiles a second time on the second step.

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


# lectures/inventory_dynamics.md before the commit (plots and KDE left out)
Firm = namedtuple('Firm', ['s', 'S', 'mu', 'sigma'])
firm = Firm(s=10, S=100, mu=1.0, sigma=0.5)


def shift_firms_forward(x_init, key, sample_dates, num_firms=50_000, sim_length=750):
    X = res = jnp.full((num_firms, ), x_init)

    # Define a jit-compiled function to update X and key
    @jax.jit
    def update_X(X, key):
        Z = random.normal(key, shape=(num_firms, ))
        D = jnp.exp(mu + sigma * Z)

        # Restock if the inventory is below the threshold
        X = jnp.where(X <= s,
                jnp.maximum(S - D, 0),
                jnp.maximum(X - D, 0))
        _, key = random.split(key)
        return X, key

    # Use a for loop to update X and collect samples
    for i in range(sim_length):
        X, key = update_X(X, key)
        if (i in sample_dates):
          res = jnp.vstack((res, X))

    return res[1:]


x_init = 50
num_firms = 50_000
sample_dates = 10, 50, 250, 500, 750
s, S, mu, sigma = firm.s, firm.S, firm.mu, firm.sigma
key = random.PRNGKey(10)

X = shift_firms_forward(x_init, key, sample_dates).block_until_ready()  # (%time in the lecture)
_report({"jit(update_X)"}, 750)  # scaffolding
