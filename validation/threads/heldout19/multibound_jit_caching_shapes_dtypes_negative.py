# source: https://github.com/juliusuberall/multi-bound/blob/main/experiments/jitCaching.py
# expect: none
# runtime: COMPILES 3 CALLS 5
# why: five calls with two shapes and three requested dtypes: float64 silently becomes float32 without x64, so the cache is hit there; only the new shape and int32 recompile (3 compiles, 5 calls).
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

import jax
import jax.numpy as jnp

# JIT compiling test that identifies when a function is recompiled. This can happen
# when the input shapes change or the argument type changes significantly. Such recompilation
# can be identified with Python side-effects as they dont appear in the JIT compiled cache of the function.
# Print() statements and python side-effects and will only print during JAX trace of a function 
# and highlight once a compilation is happening.
## https://docs.jax.dev/en/latest/jit-compilation.html#how-jax-transformations-work
## https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#pure-functions 

# ------------------------------------------------------------------------------------
@jax.jit
def f(x):
    print("⚡ Compiling...")
    return x + 1

x1 = jnp.ones((2, 2), dtype=jnp.float32)
x2 = jnp.ones((4, 4), dtype=jnp.float32)
x3 = jnp.ones((2, 2), dtype=jnp.float64)
x4 = jnp.ones((2, 2), dtype=jnp.int32)

f(x1)  # COMPILES
f(x1)  # Uses cache
f(x2)  # RECOMPILES (shape changed)
f(x3)  # Uses cache (even though dtype changed ?)
f(x4)  # RECOMPILES (dtype changed)
_report({"jit(f)"}, 5)  # scaffolding
