# source: https://docs.jax.dev/en/latest/jit-compilation.html (caching: a new shape or dtype compiles again)
# expect: none
# runtime: COMPILES 1 CALLS 3
import jax
import jax.numpy as jnp


@jax.jit
def total(x):
    return x.sum()


class Evaluator:
    def __init__(self, data):
        self.data = data

    def run(self):
        return [total(self.data[start:start + 3]) for start in range(0, 9, 3)]


print(Evaluator(jnp.arange(10.0)).run())
