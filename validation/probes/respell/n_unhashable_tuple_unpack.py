# source: look-alike of p_unhashable_tuple_unpack: the static value a tuple, unpacked the same way
# expect: none
# runtime: COMPILES 1 CALLS 1
import jax
import jax.numpy as jnp


def add(dummy, x):
    return x + len(dummy)


add_fast = jax.jit(add, static_argnums=0)
dummy, real = (0,), jnp.zeros(3)
print(add_fast(dummy, real))
