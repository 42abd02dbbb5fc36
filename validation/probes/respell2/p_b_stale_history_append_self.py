# source: validation/threads/heldout6/jaxpr5492_list_append_leaks_tracer.py (a list appended inside jit), self.history.append in a jitted method with static self
# expect: JIT602 at line 17
# runtime: STALE COMPILES 1 CALLS 3
from functools import partial

import jax
import jax.numpy as jnp


class Model:
    def __init__(self):
        self.history = []

    @partial(jax.jit, static_argnums=0)
    def loss(self, w):
        value = jnp.sum(w ** 2)
        self.history.append(value)  # <-
        return value


m = Model()
for i in range(3):
    m.loss(jnp.ones(2) * i)
print(len(m.history))
