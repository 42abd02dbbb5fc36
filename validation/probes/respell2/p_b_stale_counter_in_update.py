# source: validation/threads/heldout6/bayesflow223_python_step_counter_in_jitted_step.py (self.current_step += 1 inside a jitted method with static self), from jax import jit, the counter read through a property, a trainer's fit()
# expect: JIT602 at line 22
# expect: JIT603 at line 22
# runtime: STALE COMPILES 1 CALLS 3
from functools import partial

import jax.numpy as jnp
from jax import jit


class Trainer:
    def __init__(self):
        self.iteration = 0

    @property
    def lr(self):
        return 0.1 / (1 + self.iteration)

    @partial(jit, static_argnums=(0,))
    def update(self, w, g):
        w = w - self.lr * g
        self.iteration = self.iteration + 1  # <-
        return w

    def fit(self, w):
        for _ in range(3):
            w = self.update(w, jnp.ones_like(w))
        print(self.iteration, w)
        return w


Trainer().fit(jnp.zeros(2))
