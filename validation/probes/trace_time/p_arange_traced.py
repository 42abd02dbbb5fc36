# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.ConcretizationTypeError
# expect: JIT802 at line 10
# runtime: ERROR ConcretizationTypeError
import jax
import jax.numpy as jnp


@jax.jit
def positions(length):
    return jnp.arange(length) * 2


print(positions(5))
