# source: https://docs.jax.dev/en/latest/faq.html (jit and caching: avoid jit of a new function in a loop)
# expect: JIT101 at line 13
# runtime: COMPILES 3 CALLS 3
import jax
import jax.numpy as jnp


class Model:
    def __init__(self):
        self.w = jnp.eye(3)

    def predict(self, x):
        return jax.jit(lambda v: v @ self.w)(x)


model = Model()
x = jnp.ones(3)
for _ in range(3):
    x = model.predict(x)
print(x)
