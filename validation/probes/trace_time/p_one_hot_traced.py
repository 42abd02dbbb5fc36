# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.ConcretizationTypeError
# expect: JIT802 at line 10
# runtime: ERROR ConcretizationTypeError
import jax
import jax.numpy as jnp


@jax.jit
def encode(labels, num_classes):
    return jax.nn.one_hot(labels, num_classes)


print(encode(jnp.array([0, 2]), 3))
