# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.ConcretizationTypeError
# expect: none
# runtime: ok
import equinox as eqx
import jax
import jax.numpy as jnp


@eqx.filter_jit
def tile_rows(x, n):
    return jnp.tile(x, (n, 1)) + jnp.zeros((n, x.shape[0]))


print(tile_rows(jnp.ones(3), 2))
