# source: https://github.com/QuantEcon/cbc_2024/blob/eb61f33f3875ade4f0ee6d31380a539d956ecbd4/3_wednesday/jax_intro.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: The jitted option pricer uses its parameters n and M in range(n) and jnp.full(M, ...), which would fail if they were traced, but the notebook calls it with no arguments, so every parameter is an unpassed Python default (a compile-time constant) and the two calls compile once.

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
# (numba version of the pricer cut)
M = 10_000  # scaffolding: 10_000_000 sample paths in the notebook

n, β, K = 20, 0.99, 100
μ, ρ, ν, S0, h0 = 0.0001, 0.1, 0.001, 10, 0

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
compute_call_price_jax()
compute_call_price_jax().block_until_ready()
_report({"jit(compute_call_price_jax)"}, 2)
