# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.ConcretizationTypeError
# expect: JIT806 at line 10
# runtime: ERROR ConcretizationTypeError
import jax
import jax.numpy as jnp


@jax.jit
def num_classes(labels):
    return jnp.unique(labels).shape[0]


print(num_classes(jnp.array([0, 1, 1, 2])))
