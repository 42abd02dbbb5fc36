# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.ConcretizationTypeError
# expect: JIT802 at line 10
# runtime: ERROR ConcretizationTypeError
import jax
import jax.numpy as jnp


@jax.jit
def count_valid(mask, x):
    n = int(mask.sum())
    return x[:n]


print(count_valid(jnp.array([True, False, True]), jnp.ones(3)))
