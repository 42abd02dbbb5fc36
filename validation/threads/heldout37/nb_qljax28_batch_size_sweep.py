# source: https://github.com/judejinjin/ql-jax/blob/3d2896f44c0bdf580a22b353493900f5c5d1c10d/notebooks/28_jit_deep_dive.ipynb
# expect: shape-churn at line 71
# runtime: COMPILES 4 CALLS 44
# why: Cell 3 of the JIT deep-dive notebook calls one jax.jit(jax.vmap(bsm_price)) with portfolios of 10, 100, 1000 and 10000 options, so every new batch size is traced and compiled again (4 compiles for 44 calls).
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


# %% cell 3
batch_bsm = jax.jit(jax.vmap(bsm_price))

compile_times = []
exec_times = []
sizes = [10, 100, 1000, 10000]

for n in sizes:
    args_n = tuple(jnp.full(n, v) for v in [100.0, 100.0, 1.0, 0.03, 0.01, 0.2, 1.0])
    
    # First call → recompile for new shape
    t0 = time.perf_counter()
    _ = batch_bsm(*args_n)
    compile_times.append((time.perf_counter() - t0) * 1000)
    
    # Cached call
    t0 = time.perf_counter()
    for _ in range(10):
        _ = batch_bsm(*args_n)
    exec_times.append((time.perf_counter() - t0) * 1000 / 10)

_report({"jit(bsm_price)"}, len(sizes) * 11)  # scaffolding
