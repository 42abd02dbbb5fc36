# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.ConcretizationTypeError
# expect: JIT802 at line 10
# runtime: ERROR TypeError
import jax
import jax.numpy as jnp


@jax.jit
def padded(x, n):
    return jnp.concatenate([x, jnp.zeros(n)])


print(padded(jnp.ones(3), 2))
