# source: validation/threads/heldout6/jaxpr27980_jit_of_new_lambda_in_loop.py (jax.jit of a new callable on every call), jax.jit of a nested function built in __call__
# expect: JIT102 at line 16
# runtime: COMPILES 3 CALLS 3
import jax
import jax.numpy as jnp


class Layer:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        def forward(v):
            return jnp.tanh(v * self.scale)

        return jax.jit(forward)(x)  # <-


layer = Layer(2.0)
for _ in range(3):
    print(layer(jnp.ones(2)))
