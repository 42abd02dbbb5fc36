# source: https://docs.jax.dev/en/latest/faq.html (jit and caching: avoid jit of a new function in a loop)
# expect: JIT102 at line 9, 10, 12
# runtime: COMPILES 3 CALLS 3
import jax
import jax.numpy as jnp


def predict(x):
    @jax.jit
    def forward(v):
        return jnp.tanh(v)
    return forward(x)


x = jnp.ones(3)
for _ in range(3):
    x = predict(x)
print(x)
