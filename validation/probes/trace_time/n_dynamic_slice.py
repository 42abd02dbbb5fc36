# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.ConcretizationTypeError
# expect: none
# runtime: ok
import jax
import jax.numpy as jnp


@jax.jit
def window(x, start):
    return jax.lax.dynamic_slice(x, (start,), (3,))


print(window(jnp.arange(10.0), 2))
