# source: https://github.com/arampatzis-teaching/damsl-281-2025
# expect: none
# runtime: COMPILES 1 CALLS 6
# why: selu is jitted once outside any loop, warmed up, then timed on the same 1e6-element array: one compile, reused for every timed call.
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
import jax
import jax.numpy as jnp
import numpy as np
from jax import random

key = random.key(42)  # scaffolding: from cell 12

def selu(x, alpha=1.67, lmbda=1.05):
    return lmbda * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)

x_large = jax.random.normal(key, (1_000_000,))

# 1. Python/JAX (Interpreted Mode)
# It runs operation-by-operation (slow dispatch).
for _ in range(5):  # scaffolding: interp_time = %timeit -o selu(x_large).block_until_ready()
    selu(x_large).block_until_ready()

# 2. JIT Compiled
# Compiles the whole function into a single XLA kernel.
selu_jit = jax.jit(selu)

# Warm-up call (compilation happens here)
selu_jit(x_large).block_until_ready()

# Benchmark the compiled version
for _ in range(5):  # scaffolding: jit_time = %timeit -o selu_jit(x_large).block_until_ready()
    selu_jit(x_large).block_until_ready()
_report({"jit(selu)"}, 6)  # scaffolding
