# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.NonConcreteBooleanIndexError
# expect: JIT806 at line 10
# runtime: ERROR NonConcreteBooleanIndexError
import jax
import jax.numpy as jnp


@jax.jit
def masked_mean(x, mask):
    return x[mask].mean()


print(masked_mean(jnp.arange(3.0), jnp.array([True, False, True])))
