# source: https://docs.jax.dev/en/latest/faq.html (jit and caching: a new function object each call)
# expect: JIT402 at line 21
# runtime: COMPILES 3 CALLS 3
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=1)
def apply(x, fn):
    return fn(x)


class Layer:
    @property
    def activation(self):
        return lambda v: jnp.tanh(v)

    def __call__(self, x):
        return apply(x, self.activation)


layer = Layer()
x = jnp.ones(3)
for _ in range(3):
    x = layer(x)
print(x)
