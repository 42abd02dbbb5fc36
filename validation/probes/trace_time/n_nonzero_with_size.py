# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.ConcretizationTypeError
# expect: none
# runtime: ok
import jax
import jax.numpy as jnp


@jax.jit
def active(mask):
    (idx,) = jnp.nonzero(mask, size=3, fill_value=-1)
    labels = jnp.unique(idx, size=3, fill_value=-1)
    return idx, labels


print(active(jnp.array([True, False, True])))
