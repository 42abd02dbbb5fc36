# source: ../shared/realworld/cases2/jax3133_numpy_array_indexed_by_tracer.py (a NumPy array indexed by a tracer), the table on self and the jitted method static in self
# expect: JIT803 at line 17
# runtime: ERROR TracerArrayConversionError
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


class Embedding:
    def __init__(self):
        self.weights = np.linspace(0.0, 1.0, 8)

    @partial(jax.jit, static_argnums=0)
    def lookup(self, token):
        return self.weights[token]  # <-


print(Embedding().lookup(jnp.int32(2)))
