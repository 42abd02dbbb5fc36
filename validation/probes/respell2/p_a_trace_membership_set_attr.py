# source: fixtures/hashed_tracers/membership_in_set.py (a traced value hashed for membership), `in` a set held on self, inside a method jitted with a static self
# expect: JIT809 at line 16
# runtime: ERROR TypeError
from functools import partial

import jax
import jax.numpy as jnp


class Masker:
    def __init__(self, ignore):
        self.ignore = set(ignore)

    @partial(jax.jit, static_argnums=0)
    def weight(self, token):
        if token in self.ignore:  # <-
            return jnp.float32(0.0)
        return jnp.float32(1.0)


print(Masker([0, 1]).weight(jnp.int32(2)))
