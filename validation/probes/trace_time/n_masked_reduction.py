# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.NonConcreteBooleanIndexError
# expect: none
# runtime: ok
import jax
import jax.numpy as jnp


@jax.jit
def sum_of_positive(x):
    mask = x > 0
    return jnp.sum(x, where=mask), x.mean(where=mask)


print(sum_of_positive(jnp.array([-1.0, 1.0, 2.0])))
