# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.ConcretizationTypeError
# expect: JIT802 at line 9
# runtime: ERROR TypeError
import jax
import jax.numpy as jnp


def make_buffer(length, dim):
    return jnp.zeros((length, dim))


@jax.jit
def init_cache(x, max_len):
    return make_buffer(max_len, x.shape[-1]) + x


print(init_cache(jnp.ones(4), 8))
