# source: look-alike of p_trace_numpy_index: the table a jnp array
# expect: none
# runtime: COMPILES 1 CALLS 1
import jax
import jax.numpy as jnp
import numpy as onp


class Lookup:
    def __init__(self):
        self.table = jnp.asarray(onp.arange(10.0))

    def __call__(self, i):
        return self.table[i]


lookup = Lookup()
print(jax.jit(lambda i: lookup(i))(jnp.int32(3)))
