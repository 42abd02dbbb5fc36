# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.NonConcreteBooleanIndexError
# expect: JIT806 at line 10
# runtime: ERROR NonConcreteBooleanIndexError
import jax
import jax.numpy as jnp


@jax.jit
def sum_of_positive(x):
    return x[x > 0].sum()


print(sum_of_positive(jnp.array([-1.0, 1.0, 2.0])))
