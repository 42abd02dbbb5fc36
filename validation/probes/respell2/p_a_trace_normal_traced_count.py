# source: validation/threads/heldout5/jax648_randint_traced_num_samples.py (a traced value as a shape), jax.random.normal sized by a parameter of a jitted method called from a sampler loop
# expect: JIT802 at line 14
# runtime: ERROR TypeError
import jax
import jax.numpy as jnp


class Sampler:
    def __init__(self, dim):
        self.dim = dim
        self._draw = jax.jit(self.draw)

    def draw(self, key, num_samples):
        eps = jax.random.normal(key, (num_samples, self.dim))  # <-
        return eps.mean(axis=0)


sampler = Sampler(3)
key = jax.random.PRNGKey(0)
for n in (4, 8):
    key, sub = jax.random.split(key)
    print(sampler._draw(sub, n))
