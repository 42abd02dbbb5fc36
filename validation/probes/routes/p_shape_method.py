# source: https://docs.jax.dev/en/latest/jit-compilation.html (caching: a new shape or dtype compiles again)
# expect: JIT501 at line 18
# runtime: COMPILES 3 CALLS 3
import jax
import jax.numpy as jnp


@jax.jit
def total(x):
    return x.sum()


class Evaluator:
    def __init__(self, data):
        self.data = data

    def run(self):
        return [total(self.data[:end]) for end in range(1, 4)]


print(Evaluator(jnp.arange(10.0)).run())
