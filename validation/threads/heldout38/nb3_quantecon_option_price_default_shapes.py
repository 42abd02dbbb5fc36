# source: https://github.com/QuantEcon/cbc_workshops/blob/daadc16ae65e8e7fcb09b2b662aedbc8eee8f099/day_4/european_option_jax.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: @jax.jit compute_call_price_jax uses its arguments M and n as an array size and a Python loop count, which would fail if passed, but the notebook calls it with no arguments, so the Python defaults are baked in and it compiles once for both calls.

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
# ---- cell 2
import numpy as np
# ---- cell 4
n = 20
β = 0.99
K = 100
# ---- cell 8
M = 100_000  # scaffolding: cell 12's M = 10_000_000 cut down (the Numba cells 11-19 are dropped)
μ  = 0.0001
ρ  = 0.1
ν  = 0.001
S0 = 10
h0 = 0
# ---- cell 20
import jax
import jax.numpy as jnp
# ---- cell 21
@jax.jit
def compute_call_price_jax(β=β,
                           μ=μ,
                           S0=S0,
                           h0=h0,
                           K=K,
                           n=n,
                           ρ=ρ,
                           ν=ν,
                           M=M,
                           key=jax.random.PRNGKey(1)):

    s = jnp.full(M, np.log(S0))
    h = jnp.full(M, h0)
    for t in range(n):
        key, subkey = jax.random.split(key)
        Z = jax.random.normal(subkey, (2, M))
        s = s + μ + jnp.exp(h) * Z[0, :]
        h = ρ * h + ν * Z[1, :]
    expectation = jnp.mean(jnp.maximum(jnp.exp(s) - K, 0))
        
    return β**n * expectation
# ---- cell 22
compute_call_price_jax().block_until_ready()
# ---- cell 23
compute_call_price_jax().block_until_ready()
_report({"jit(compute_call_price_jax)"}, 2)  # scaffolding
