# source: https://github.com/judejinjin/ql-jax/blob/3d2896f44c0bdf580a22b353493900f5c5d1c10d/notebooks/28_jit_deep_dive.ipynb
# expect: none
# runtime: COMPILES 2 CALLS 16
# why: Cell 8 builds jax.jit(fn) inside a loop over a dict of two different engines; each wrapper is built once for its own function and then reused for the warm-up and timing calls, so each compiles once (2 compiles, 8 calls).
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


def heston_price(S, K, T, r, q, v0, kappa, theta, xi, rho, cp):  # scaffolding: stand-in for ql_jax's Heston engine
    return bsm_price(S, K, T, r, q, jnp.sqrt(v0), -cp)


def timed_ms(fn, *args, warmup=2, runs=5):  # scaffolding: stand-in for notebooks/_common.timed_ms
    for _ in range(warmup):
        result = fn(*args)
    t0 = time.perf_counter()
    for _ in range(runs):
        result = fn(*args)
    return (time.perf_counter() - t0) * 1000 / runs, result


# %% cell 8
engines = {
    'BSM':    lambda: bsm_price(100.0, 100.0, 1.0, 0.03, 0.01, 0.2, 1.0),
    'Heston': lambda: heston_price(100.0, 100.0, 1.0, 0.03, 0.01, 0.04, 1.5, 0.04, 0.3, -0.7, 1),
}

results = {}
for name, fn in engines.items():
    fn_jit = jax.jit(fn)
    _ = fn_jit()  # warm
    ms_eager, _ = timed_ms(fn)
    ms_jit, _ = timed_ms(fn_jit)
    results[name] = (ms_eager, ms_jit)
    print(f"{name:8s}: eager {ms_eager:.3f} ms → JIT {ms_jit:.4f} ms  ({ms_eager/ms_jit:.0f}×)")

_report({"jit(<lambda>)"}, 2 * (1 + 7))  # scaffolding
