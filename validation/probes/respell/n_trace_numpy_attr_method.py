# source: look-alike of p_trace_numpy_attr_method: the table converted with jnp.asarray once
# expect: none
# runtime: COMPILES 1 CALLS 1
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


class Embedding:
    def __init__(self):
        self.weights = jnp.asarray(np.linspace(0.0, 1.0, 8))

    @partial(jax.jit, static_argnums=0)
    def lookup(self, token):
        return self.weights[token]


print(Embedding().lookup(jnp.int32(2)))
