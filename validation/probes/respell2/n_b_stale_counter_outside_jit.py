# source: validation/threads/heldout6/bayesflow223_python_step_counter_in_jitted_step.py, look-alike: the counter advanced by the caller, outside jit, and the jitted method never reads it
# expect: none
# runtime: COMPILES 1 CALLS 3
from functools import partial

import jax.numpy as jnp
from jax import jit


class Trainer:
    def __init__(self):
        self.iteration = 0

    @partial(jit, static_argnums=(0,))
    def update(self, w, g, lr):
        return w - lr * g

    def fit(self, w):
        for _ in range(3):
            w = self.update(w, jnp.ones_like(w), 0.1 / (1 + self.iteration))
            self.iteration = self.iteration + 1
        print(self.iteration, w)
        return w


Trainer().fit(jnp.zeros(2))
