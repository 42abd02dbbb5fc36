# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.ConcretizationTypeError
# expect: JIT802 at line 11
# runtime: ERROR TypeError
import jax
import jax.numpy as jnp


@jax.jit
def keep_positive(x):
    n = jnp.sum(x > 0)
    return jnp.zeros(n)


print(keep_positive(jnp.array([1.0, -1.0, 2.0])))
