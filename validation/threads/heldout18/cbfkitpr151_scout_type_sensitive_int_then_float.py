# source: https://github.com/bardhh/cbfkit/pull/151
# expect: shape-churn at line 59
# runtime: COMPILES 2 CALLS 2
# why: the 'subtle trap' section calls the jitted type_sensitive with a Python int and then a Python float, so the argument dtype changes (weak int32 vs weak float32) and it compiles twice.
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
    print("🔎 Scout: Starting JIT Compile Count Benchmark...")  # sections 1-2 are in the twin file (scaffolding)
    print("\n3. Scalar Types (Subtle Trap)")
    # Python int vs float sometimes triggers recompile if not careful

    @jax.jit
    def type_sensitive(val):
        return val * 2.0

    type_sensitive(1)   # int
    type_sensitive(1.0) # float

    print(f"   Mixed int/float calls. Cache Size: {type_sensitive._cache_size()}")

    print("\nDone.")

if __name__ == "__main__":
    run()
    _report({"jit(type_sensitive)"}, 2)  # scaffolding
