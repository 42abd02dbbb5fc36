# source: https://github.com/Kevinobote/90-Days-of-JAX/blob/main/Phase1_Foundations_Core_JAX/Week%201:%20Getting%20Started/day_003_intro_jit/main.py
# expect: none
# runtime: COMPILES 4 CALLS 6
# why: a Python bool flag and a loop bound marked static_argnums: each distinct static value compiles once and repeats hit the cache (4 compiles for 6 calls, 2 distinct values each).
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
import time

# --- Part 2: JIT and Python Control Flow ---

print("\n--- JIT and Python Control Flow ---")

# The original function for `conditional_sum_static`
def conditional_sum(a, b, condition):
    # 'condition' here is a Python boolean, treated as static
    if condition:
        return a + b
    else:
        return a - b

# Option 1: Use `static_argnums` for the condition by explicitly wrapping
# This tells JAX that `condition` is a static argument, whose *value* is used for compilation.
# If `condition` changes, JAX will recompile.
jit_conditional_sum_static = jax.jit(conditional_sum, static_argnums=(2,))

print("\n--- Conditional Sum with `static_argnums` for condition ---")
# First call with condition=True
print("Calling with condition=True (static_argnums):")
start_time = time.time()
res1_static = jit_conditional_sum_static(jnp.array(10), jnp.array(5), True).block_until_ready()
end_time = time.time()
print(f"Result: {res1_static}, Time: {end_time - start_time:.6f}s (potentially compiles)")

# Second call with condition=True (should be fast, no recompile)
start_time = time.time()
res2_static = jit_conditional_sum_static(jnp.array(10), jnp.array(5), True).block_until_ready()
end_time = time.time()
print(f"Result: {res2_static}, Time: {end_time - start_time:.6f}s (compiled)")

# Call with condition=False (triggers re-compilation for the new static value)
print("\nCalling with condition=False (static_argnums):")
start_time = time.time()
res3_static = jit_conditional_sum_static(jnp.array(10), jnp.array(5), False).block_until_ready()
end_time = time.time()
print(f"Result: {res3_static}, Time: {end_time - start_time:.6f}s (recompiles for new static value)")

# --- Part 3: What JIT can't (easily) do / Static Arguments (Revised) ---
print("\n--- JIT Limitations / Static Arguments for Loop Bounds ---")

def sum_n_elements(arr, n):
    # This loop depends on 'n', a Python integer.
    # 'n' MUST be a static argument for Python's `range` to work inside JIT.
    total = 0.0
    for i in range(n): # JAX can trace this because `n` is declared static
        total += arr[i]
    return total

# With static_argnums, 'n' is passed to the compiler as a concrete Python integer.
# The 'n' argument is at index 1 (0-indexed).
jit_sum_n_elements_static = jax.jit(sum_n_elements, static_argnums=(1,))

arr_data = jnp.arange(10.0)

print("\nCalling sum_n_elements (n static_argnums=1):")
start_time = time.time()
res_static1 = jit_sum_n_elements_static(arr_data, 3).block_until_ready()
end_time = time.time()
print(f"Sum (n=3): {res_static1}, Time: {end_time - start_time:.6f}s (potentially compiles)")

start_time = time.time()
res_static2 = jit_sum_n_elements_static(arr_data, 5).block_until_ready() # This will still recompile for a *new* value of `n`
                                                                        # because the trace depends on 'n's concrete value.
end_time = time.time()
print(f"Sum (n=5): {res_static2}, Time: {end_time - start_time:.6f}s (compiles for new static value)")

start_time = time.time()
res_static3 = jit_sum_n_elements_static(arr_data, 3).block_until_ready() # Should be fast now for n=3 (re-uses compiled code)
end_time = time.time()
_report({"jit(conditional_sum)", "jit(sum_n_elements)"}, 6)  # scaffolding
