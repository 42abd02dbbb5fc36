# source: https://github.com/bardhh/cbfkit/pull/151
# expect: shape-churn at line 80
# runtime: COMPILES 20 CALLS 120
# why: after 100 stable calls the benchmark feeds heavy_compute a new length every step (jnp.ones((i,)) for i in 1..20), so the jitted function compiles once per distinct shape.
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



"""
Scout: JIT Compile Count Benchmark
==================================

Measures the number of JIT compilations triggered by a function.
Excessive recompilation is a major performance bottleneck in JAX.

This benchmark demonstrates:
1. Ideal case: Constant cache size (1) for stable inputs.
2. Pathological case: Growing cache size for changing input shapes/types.
"""

import sys
import os
import time
import jax
import jax.numpy as jnp
import numpy as np

# Ensure src is in path
sys.path.append(os.path.abspath(os.path.join(os.path.dirname(__file__), "../../src")))

def run():
    print("🔎 Scout: Starting JIT Compile Count Benchmark...")

    # Define a simple compute heavy function
    @jax.jit
    def heavy_compute(x, param):
        # Simulate some controller logic
        return jnp.dot(x, x.T) * param

    print("\n1. Stable Inputs (Ideal)")
    print("   Running 100 steps with fixed shape (10,)...")

    for _ in range(100):
        x = jnp.ones((10,))
        heavy_compute(x, 1.0)

    cache_size = heavy_compute._cache_size()
    print(f"   Cache Size: {cache_size} (Expected: 1)")
    if cache_size == 1:
        print("   ✅ GOOD: No recompilation.")
    else:
        print(f"   ❌ BAD: {cache_size} compilations detected.")

    print("\n2. Variable Shapes (Pathological)")
    print("   Running 20 steps with changing shapes...")

    # We expect this to trigger recompilation for every unique shape
    # This simulates e.g. a variable number of obstacles or agents not being padded

    for i in range(1, 21):
        x = jnp.ones((i,)) # Shape changes: (1,), (2,), ...
        heavy_compute(x, 1.0)

    cache_size = heavy_compute._cache_size()
    print(f"   Cache Size: {cache_size} (Expected: ~21)")

    if cache_size > 10:
        print("   ⚠️  WARNING: High recompilation count detected!")
        print("      This happens when input shapes or static arguments change.")
        print("      Fix: Pad inputs to fixed size or use `jax.lax.cond`.")

    # section 3 (scalar types) is in the twin file (scaffolding)
    print("\nDone.")

if __name__ == "__main__":
    run()
    _report({"jit(heavy_compute)"}, 120)  # scaffolding
