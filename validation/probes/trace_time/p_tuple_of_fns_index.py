# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.TracerIntegerConversionError
# expect: JIT802 at line 12
# runtime: ERROR TracerIntegerConversionError
import jax
import jax.numpy as jnp

ACTIVATIONS = (jax.nn.relu, jnp.tanh, jax.nn.sigmoid)


@jax.jit
def activate(kind, x):
    return ACTIVATIONS[kind](x)


print(activate(1, jnp.ones(3)))
