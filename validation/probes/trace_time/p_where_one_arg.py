# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.ConcretizationTypeError
# expect: JIT806 at line 10
# runtime: ERROR ConcretizationTypeError
import jax
import jax.numpy as jnp


@jax.jit
def negative_positions(x):
    return jnp.where(x < 0)


print(negative_positions(jnp.array([1.0, -1.0])))
