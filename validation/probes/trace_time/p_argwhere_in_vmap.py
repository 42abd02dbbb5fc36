# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.ConcretizationTypeError
# expect: JIT806 at line 9
# runtime: ERROR ConcretizationTypeError
import jax
import jax.numpy as jnp


def first_hit(row):
    return jnp.argwhere(row > 0.5)[0]


print(jax.vmap(first_hit)(jnp.eye(3)))
