# source: https://github.com/dragonfly90/jax_learning/blob/a35a83d0b516112fa5111fb4424937a56d87ba2b/06_scan_and_control_flow.py
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: a Python for loop over range(5) inside @jax.jit is unrolled at trace time; one compile.
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

# ---- 1. Why not Python loops inside jit? ----
# Python for/if are traced once at compile time — they can't depend on values.

# This WORKS but unrolls the loop (slow compilation for large N):
@jax.jit
def python_loop(x):
    for i in range(5):  # unrolled at trace time
        x = x + 1.0
    return x

print("Python loop:", python_loop(0.0))  # 5.0
_report({"jit(python_loop)"}, 1)  # scaffolding
