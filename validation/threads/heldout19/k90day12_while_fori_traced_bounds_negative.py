# source: https://github.com/Kevinobote/90-Days-of-JAX/blob/main/Phase1_Foundations_Core_JAX/Week%202:Automatic%20Differentiation/day_012_control_flow/main.py
# expect: none
# runtime: COMPILES 2 CALLS 4
# why: while_loop with a traced bound and fori_loop with bounds passed as Python ints to @jit: both trace once and are reused for new values (2 compiles for 4 calls).
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

@jit
def factorial_while(n):
    def cond_fun(carry):
        # carry = (i, acc)
        i, acc = carry
        return i <= n

    def body_fun(carry):
        # carry = (i, acc)
        i, acc = carry
        return i + 1, acc * i # Update i and acc

    init_carry = (jnp.array(1), jnp.array(1)) # (current_i, accumulator)
    final_i, final_acc = lax.while_loop(cond_fun, body_fun, init_carry)
    return final_acc

print("\n--- Part 3: `jax.lax.while_loop` for General Loops ---")
# For `while_loop`, `n` must be a scalar JAX array.
print(f"Factorial of 5: {factorial_while(jnp.array(5))}") # Expected 1*2*3*4*5 = 120
print(f"Factorial of 3: {factorial_while(jnp.array(3))}") # Expected 1*2*3 = 6

@jit
def sum_range_fori(start, end):
    def body_fun(i, carry):
        return carry + i # Add current index to accumulator

    init_carry = jnp.array(0)
    # Sum from 'start' (inclusive) up to 'end' (exclusive)
    total_sum = lax.fori_loop(start, end, body_fun, init_carry)
    return total_sum

print("\n--- Part 4: `jax.lax.fori_loop` for Fixed-Iteration Loops ---")
print(f"Sum from 0 to 5 (exclusive): {sum_range_fori(0, 5)}") # Expected 0+1+2+3+4 = 10
print(f"Sum from 10 to 13 (exclusive): {sum_range_fori(10, 13)}") # Expected 10+11+12 = 33
_report({"jit(factorial_while)", "jit(sum_range_fori)"}, 4)  # scaffolding
