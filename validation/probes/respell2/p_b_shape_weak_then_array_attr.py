# source: validation/threads/heldout5/liesel364_weak_vs_strong_scalar_argument.py (the same value weak then converted to an array), the value a model attribute converted in a method
# expect: JIT502 at line 28
# runtime: COMPILES 2 CALLS 2
import jax
import jax.numpy as jnp


@jax.jit
def log_prob(x, sigma):
    return -0.5 * jnp.sum((x / sigma) ** 2)


class Normal:
    def __init__(self, sigma):
        self.sigma = sigma

    def log_prob(self, x):
        return log_prob(x, self.sigma)

    def freeze(self):
        self.sigma = jnp.asarray(self.sigma, dtype=jnp.float32)


d = Normal(1.5)
x = jnp.ones(2)
print(d.log_prob(x))
d.freeze()
print(d.log_prob(x))  # <-
