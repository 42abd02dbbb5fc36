# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.TracerIntegerConversionError
# expect: JIT802 at line 12
# runtime: ERROR TracerIntegerConversionError
import jax
import jax.numpy as jnp

SCALES = [0.5, 1.0, 2.0]


@jax.jit
def best_scale(scores, x):
    return x * SCALES[jnp.argmax(scores)]


print(best_scale(jnp.array([0.1, 0.7, 0.2]), jnp.ones(2)))
