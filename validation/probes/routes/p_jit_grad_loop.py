# source: https://docs.jax.dev/en/latest/faq.html (jit and caching: avoid jit of a new function in a loop)
# expect: JIT105 at line 14
# runtime: COMPILES 3 CALLS 3
import jax
import jax.numpy as jnp


def loss(x):
    return jnp.sum(x ** 2)


x = jnp.ones(3)
for _ in range(3):
    x = x - 0.1 * jax.jit(jax.grad(loss))(x)
print(x)
