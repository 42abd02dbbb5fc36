# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.ConcretizationTypeError
# expect: JIT802 at line 10
# runtime: ERROR ConcretizationTypeError
import jax
import jax.numpy as jnp


@jax.jit
def repeat_rows(x, n):
    count = int(n)
    return jnp.tile(x, (count, 1))


print(repeat_rows(jnp.ones(3), 2))
