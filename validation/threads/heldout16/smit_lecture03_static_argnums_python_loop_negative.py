# source: https://github.com/Smit-create/jax_tutorial
# expect: none
# runtime: COMPILES 2 CALLS 4
# why: sum_squares is jitted with static_argnums=(0, 1) and sum_squares_jax with traced fori_loop bounds, and each is called twice with the same (0, x), so each compiles once and the second calls hit the cache.
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


import jax.numpy as jnp
import jax

# Define a Python loop to sum the squares of numbers from `start` to `end`
def sum_squares(start, end):
    total_sum = 0
    for i in range(10):
        total_sum += i ** 2
    return total_sum

# Rewrite the loop using jax.lax.fori_loop
def sum_squares_jax(start, end):

    def body_fun(i, total):
        return total + i ** 2

    return jax.lax.fori_loop(start,    # lower
                             end,      # upper
                             body_fun, # body_fun
                             0)        # init_val (of total)

computation_jit_lax = jax.jit(sum_squares_jax)
computation_jit_python = jax.jit(sum_squares, static_argnums=(0, 1))

# Compare execution times
x = 10000

result_jit_lax = computation_jit_lax(0, x)  # scaffolding: was %time
result_jit_lax = computation_jit_lax(0, x)  # scaffolding: was %time
result_jit_python = computation_jit_python(0, x)  # scaffolding: was %time
result_jit_python = computation_jit_python(0, x)  # scaffolding: was %time
print(result_jit_lax, result_jit_python)  # scaffolding
_report({"jit(sum_squares_jax)", "jit(sum_squares)"}, 4)  # scaffolding
