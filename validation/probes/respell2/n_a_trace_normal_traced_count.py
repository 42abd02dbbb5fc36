# source: look-alike of p_a_trace_normal_traced_count: the count static (static_argnames), two values
# expect: none
# runtime: COMPILES 1 CALLS 1
import jax
import jax.numpy as jnp


class Sampler:
    def __init__(self, dim):
        self.dim = dim
        self._draw = jax.jit(self.draw, static_argnames="num_samples")

    def draw(self, key, num_samples):
        eps = jax.random.normal(key, (num_samples, self.dim))
        return eps.mean(axis=0)


sampler = Sampler(3)
key = jax.random.PRNGKey(0)
key, sub = jax.random.split(key)
print(sampler._draw(sub, num_samples=4))
