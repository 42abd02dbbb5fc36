# source: https://github.com/Kevinobote/90-Days-of-JAX/blob/main/Phase1_Foundations_Core_JAX/Week%202:Automatic%20Differentiation/day_012_control_flow/main.py
# expect: trace-time-error at line 36
# runtime: ERROR TracerBoolConversionError
# why: the lesson's commented-out python_if_example branches with a Python if on the traced x under @jit, so the first call raises TracerBoolConversionError.
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
from jax import jit, lax
import time

@jit
def python_if_example(x):
    # This will work, but the *branch taken* is determined at trace time (first call).
    # If 'x' is ever different across jitted calls, it might recompile or fail.
    # THIS FUNCTION WILL CAUSE A TracerBoolConversionError IF x IS A JAX ARRAY
    if x > 5.0: # <--- THIS LINE CAUSES THE ERROR WHEN x IS A TRACER
        return x * 2
    else:
        return x + 10

print("\n--- Part 1: Problem with Native Python Control Flow in JIT ---")
try:  # scaffolding
    print(f"python_if_example(7.0): {python_if_example(jnp.array(7.0))}") # Traces for x > 5.0
    print(f"python_if_example(3.0): {python_if_example(jnp.array(3.0))}") # This line would cause the error
    _report({"jit(python_if_example)"}, 2)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
