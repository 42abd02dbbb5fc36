# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.ConcretizationTypeError
# expect: JIT802 at line 9
# runtime: ERROR ConcretizationTypeError
import jax
import jax.numpy as jnp


def bucket(x):
    return int(x) // 2


print(jax.vmap(bucket)(jnp.arange(4)))
