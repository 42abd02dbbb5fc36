# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.ConcretizationTypeError
# expect: JIT802 at line 10
# runtime: ERROR TypeError
import jax
import jax.numpy as jnp


@jax.jit
def to_rows(x, rows):
    return x.reshape(rows, -1)


print(to_rows(jnp.arange(6.0), 2))
