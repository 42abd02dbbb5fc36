# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.NonConcreteBooleanIndexError
# expect: JIT806 at line 11
# runtime: ERROR NonConcreteBooleanIndexError
import jax
import jax.numpy as jnp


@jax.jit
def finite_mean(x):
    mask = jnp.isfinite(x)
    return x[mask].mean()


print(finite_mean(jnp.array([1.0, jnp.nan, 3.0])))
