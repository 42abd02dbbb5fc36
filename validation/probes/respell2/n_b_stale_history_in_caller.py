# source: validation/threads/heldout6/jaxpr5492_list_append_leaks_tracer.py, look-alike: the jitted method returns the value and the caller method appends it
# expect: none
# runtime: COMPILES 1 CALLS 3
from functools import partial

import jax
import jax.numpy as jnp


class Model:
    def __init__(self):
        self.history = []

    @partial(jax.jit, static_argnums=0)
    def loss(self, w):
        return jnp.sum(w ** 2)

    def log_loss(self, w):
        value = self.loss(w)
        self.history.append(value)
        return value


m = Model()
for i in range(3):
    m.log_loss(jnp.ones(2) * i)
print(len(m.history))
