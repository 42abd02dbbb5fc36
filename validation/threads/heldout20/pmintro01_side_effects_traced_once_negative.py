# source: https://github.com/patemotter/jax-intro/blob/main/01_foundations.ipynb
# expect: none
# runtime: COMPILES 2 CALLS 4
# why: the notebook's demonstration that a list append and a print inside a jitted function run only at trace time; the returned values are correct (1 compile per function).
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


import jax  # scaffolding
import jax.numpy as jnp  # scaffolding

# --- Example 1: Mutation is invisible ---
external_list = []

def bad_function(x):
    external_list.append(x)  # Side effect! JAX can't see this.
    return x + 1

# Under jit, the side effect happens at TRACE time, not at call time
jitted_bad = jax.jit(bad_function)

print("Before any calls:", len(external_list))
result1 = jitted_bad(jnp.array(1.0))
print("After first call:", len(external_list), " (traced once)")
result2 = jitted_bad(jnp.array(2.0))
print("After second call:", len(external_list), " (used cached trace, no re-trace)")

# The @ decorator is Python shorthand to pass this function through jax.jit()
@jax.jit
def traced_function(x):
    print("This prints during TRACING, not during execution!")  # <-- only runs once
    return x * 2

print("--- First call (triggers tracing + compilation): ---")
result1 = traced_function(jnp.array(3.0))
print(f"Result: {result1}")

print("\n--- Second call (uses cached compilation): ---")
result2 = traced_function(jnp.array(7.0))
print(f"Result: {result2}")
print("\nNotice: the print inside the function did NOT run the second time.")
print("Use jax.debug.print() for prints that run every call (covered in Notebook 09).")
_report({"jit(bad_function)", "jit(traced_function)"}, 4)  # scaffolding
