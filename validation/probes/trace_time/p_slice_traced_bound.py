# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.ConcretizationTypeError
# expect: JIT802 at line 10
# runtime: ERROR IndexError
import jax
import jax.numpy as jnp


@jax.jit
def head(x, n):
    return x[:n].sum()


print(head(jnp.arange(10.0), 3))
