# source: ../shared/realworld/cases2/jax3133_numpy_array_indexed_by_tracer.py (a NumPy array indexed by a tracer), numpy imported as onp and the table an attribute
# expect: JIT803 at line 14
# runtime: ERROR TracerArrayConversionError
import jax
import jax.numpy as jnp
import numpy as onp


class Lookup:
    def __init__(self):
        self.table = onp.arange(10.0)

    def __call__(self, i):
        return self.table[i]  # <-


lookup = Lookup()
print(jax.jit(lambda i: lookup(i))(jnp.int32(3)))
