# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.ConcretizationTypeError
# expect: JIT806 at line 10
# runtime: ERROR ConcretizationTypeError
import jax
import jax.numpy as jnp


@jax.jit
def active(mask):
    (idx,) = jnp.nonzero(mask)
    return idx


print(active(jnp.array([True, False, True])))
