# source: validation/threads/heldout5/jax2095_jit_of_grad_rebuilt_per_call.py, look-alike: the jitted gradient built once in __init__
# expect: none
# runtime: COMPILES 1 CALLS 3
import jax
import jax.numpy as jnp


class Regressor:
    def __init__(self):
        self._grad = jax.jit(jax.grad(self.loss))

    def loss(self, w):
        return jnp.sum((w - 3.0) ** 2)

    def step(self, w):
        return w - 0.1 * self._grad(w)


model = Regressor()
w = jnp.zeros(2)
for _ in range(3):
    w = model.step(w)
print(w)
