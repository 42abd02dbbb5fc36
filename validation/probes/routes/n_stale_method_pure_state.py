# source: https://docs.jax.dev/en/latest/faq.html (strategy 3: pass state as arguments)
# expect: none
# runtime: COMPILES 1 CALLS 2
import jax
import jax.numpy as jnp


@jax.jit
def forward(w, x):
    return x @ w


class Model:
    def __init__(self):
        self.w = jnp.ones(2)

    def __call__(self, x):
        return forward(self.w, x)


model = Model()
print(model(jnp.ones(2)))
model.w = model.w * 3
print(model(jnp.ones(2)))
