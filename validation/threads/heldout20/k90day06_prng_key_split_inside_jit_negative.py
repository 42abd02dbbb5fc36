# source: https://github.com/Kevinobote/90-Days-of-JAX/blob/main/Phase1_Foundations_Core_JAX/Week%201:%20Getting%20Started/day_006_prng/main.py
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: lesson script: the PRNG key is an argument of the jitted generator and is split inside it; a new key gives new numbers, the same key the same numbers, with one compile.
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


# day_006_prng/main.py

import jax
import jax.numpy as jnp
import time # Make sure time is imported for timing

# (Parts 1-2 of the lesson, key creation and sampling outside jit, omitted)  # scaffolding

# --- Part 3: PRNG and JIT ---

# Key splitting should happen *inside* the JITted function if the random numbers
# are generated on each call. If the keys are static, split outside.
# Generally, it's better to pass the key in and split inside.

@jax.jit
def generate_random_numbers_jitted(key):
    key1, key2 = jax.random.split(key) # Splitting inside JIT is fine
    rand_a = jax.random.normal(key1, (3,))
    rand_b = jax.random.uniform(key2, (2,))
    return rand_a, rand_b # This returns a tuple of JAX arrays

print("\n--- PRNG and JIT ---")
jit_main_key = jax.random.PRNGKey(30)

# First call (includes compile time)
start_time = time.time()
# Unpack the tuple and then call block_until_ready() on one of them
# This ensures all outputs from the JITted function are ready.
jit_output1_a, jit_output1_b = generate_random_numbers_jitted(jit_main_key)
jit_output1_a.block_until_ready() # Call block_until_ready() on one of the JAX arrays
end_time = time.time()
print(f"JITted random numbers (first run): {jit_output1_a}, {jit_output1_b}, Time: {end_time - start_time:.6f} seconds")

# Subsequent call (pass a NEW subkey to get new random numbers)
# The JITted function's input key needs to be different to get different randomness.
jit_main_key, next_subkey = jax.random.split(jit_main_key) # Update the key for the next call
start_time = time.time()
jit_output2_a, jit_output2_b = generate_random_numbers_jitted(next_subkey)
jit_output2_a.block_until_ready() # Call block_until_ready() on one of the JAX arrays
end_time = time.time()
print(f"JITted random numbers (subsequent run with NEW key): {jit_output2_a}, {jit_output2_b}, Time: {end_time - start_time:.6f} seconds")

# Subsequent call (pass the SAME subkey to illustrate predictability inside JIT)
start_time = time.time()
jit_output3_a, jit_output3_b = generate_random_numbers_jitted(next_subkey)
jit_output3_a.block_until_ready() # Call block_until_ready() on one of the JAX arrays
end_time = time.time()
print(f"JITted random numbers (subsequent run with SAME key): {jit_output3_a}, {jit_output3_b}, Time: {end_time - start_time:.6f} seconds")
print("Notice jit_output2 and jit_output3 are the same because the input key was the same.")
print("outputs 2 and 3 equal:", bool(jnp.array_equal(jit_output2_a, jit_output3_a)), "outputs 1 and 2 equal:", bool(jnp.array_equal(jit_output1_a, jit_output2_a)))  # scaffolding
_report({"jit(generate_random_numbers_jitted)"}, 3)  # scaffolding
