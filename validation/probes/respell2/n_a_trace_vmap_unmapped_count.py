# source: look-alike of p_a_trace_normal_traced_count: a Python range over an argument that jax.vmap leaves unmapped (in_axes None), so it stays a Python int
# expect: none
# runtime: COMPILES 0 CALLS 0
import jax
import jax.numpy as jnp


def power_sum(x, n):
    total = 0.0
    for k in range(n):
        total = total + x ** k
    return total


print(jax.vmap(power_sum, in_axes=(0, None))(jnp.ones(3), 3))
