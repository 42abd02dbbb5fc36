# source: look-alike of p_static_range_name: the degree is traced, not static
# expect: none
# runtime: COMPILES 1 CALLS 3
import jax
import jax.numpy as jnp


@jax.jit
def power(x, n):
    return x ** n


x = jnp.full(2, 1.01)
degrees = range(1, 4)
for n in degrees:
    x = power(x, n)
print(x)
