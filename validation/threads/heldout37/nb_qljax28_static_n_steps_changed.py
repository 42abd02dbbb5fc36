# source: https://github.com/judejinjin/ql-jax/blob/3d2896f44c0bdf580a22b353493900f5c5d1c10d/notebooks/28_jit_deep_dive.ipynb
# expect: changing-static at line 96
# runtime: COMPILES 2 CALLS 3
# why: Cell 4 marks n_paths and n_steps static (static_argnums=(6, 7)); the third call changes n_steps from 100 to 200, so mc_jit is traced and compiled a second time.
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
# %% cell 0
BACKEND = "cpu"

import sys, os, time


def setup_backend(backend="cpu"):  # scaffolding: notebooks/_common.setup_backend, inlined
    os.environ["JAX_PLATFORMS"] = backend
    import jax
    jax.config.update("jax_enable_x64", True)
    return jax


jax = setup_backend(BACKEND)
import jax.numpy as jnp
import numpy as np
# (matplotlib import and plots removed: scaffolding)


# %% cell 1
# scaffolding: ql_jax.engines.analytic.black_scholes_merton is not in the repository at this
# commit; a closed-form Black-Scholes-Merton stand-in with the notebook's argument order
def bsm_price(S, K, T, r, q, sigma, cp):  # scaffolding
    d1 = (jnp.log(S / K) + (r - q + 0.5 * sigma**2) * T) / (sigma * jnp.sqrt(T))
    d2 = d1 - sigma * jnp.sqrt(T)
    N = jax.scipy.stats.norm.cdf
    call = S * jnp.exp(-q * T) * N(d1) - K * jnp.exp(-r * T) * N(d2)
    put = K * jnp.exp(-r * T) * N(-d2) - S * jnp.exp(-q * T) * N(-d1)
    return jnp.where(cp > 0, call, put)


def mc_european_bs(S, K, T, r, q, sigma, option_type, n_paths=100_000, n_steps=1, key=None, antithetic=True):  # scaffolding: trimmed from ql_jax/engines/mc/european.py
    if key is None:
        key = jax.random.PRNGKey(42)
    dt = T / n_steps
    z = jax.random.normal(key, shape=(n_paths, n_steps))
    if antithetic:
        z = jnp.concatenate([z, -z], axis=0)
    log_ST = jnp.log(S) + jnp.sum((r - q - 0.5 * sigma**2) * dt + sigma * jnp.sqrt(dt) * z, axis=1)
    payoff = jnp.maximum(option_type * (jnp.exp(log_ST) - K), 0.0)
    disc = jnp.exp(-r * T) * payoff
    return jnp.mean(disc), jnp.std(disc) / jnp.sqrt(disc.shape[0])


# %% cell 4
# BAD: n_steps as a traced value → recompiles every time it changes
# GOOD: static_argnums tells JAX to bake it into the graph

def mc_pricer(S, K, T, r, q, sigma, n_paths, n_steps):
    price, _ = mc_european_bs(S, K, T, r, q, sigma, 1,
                              n_paths=n_paths, n_steps=n_steps)
    return price

# Mark n_paths and n_steps as static
mc_jit = jax.jit(mc_pricer, static_argnums=(6, 7))

# Same static args → no recompile
t0 = time.perf_counter()
_ = mc_jit(100.0, 100.0, 1.0, 0.03, 0.01, 0.2, 50_000, 100)
t_compile = (time.perf_counter() - t0) * 1000

# Change S → no recompile (traced arg)
t0 = time.perf_counter()
_ = mc_jit(105.0, 100.0, 1.0, 0.03, 0.01, 0.2, 50_000, 100)
t_same_static = (time.perf_counter() - t0) * 1000

# Change n_steps → recompile (static arg changed)
t0 = time.perf_counter()
_ = mc_jit(100.0, 100.0, 1.0, 0.03, 0.01, 0.2, 50_000, 200)
t_new_static = (time.perf_counter() - t0) * 1000

print(f"First compile                   : {t_compile:.1f} ms")
print(f"Same static args (cached)       : {t_same_static:.1f} ms")
print(f"Changed static arg (recompile)  : {t_new_static:.1f} ms")
_report({"jit(mc_pricer)"}, 3)  # scaffolding
