# source: validation/threads/heldout5/jax2095_jit_of_grad_rebuilt_per_call.py (jax.jit(jax.grad(f)) made inside the function called each step), a model method, the loss a bound method
# expect: JIT105 at line 13
# runtime: COMPILES 3 CALLS 3
import jax
import jax.numpy as jnp


class Regressor:
    def loss(self, w):
        return jnp.sum((w - 3.0) ** 2)

    def step(self, w):
        g = jax.jit(jax.grad(self.loss))(w)  # <-
        return w - 0.1 * g


model = Regressor()
w = jnp.zeros(2)
for _ in range(3):
    w = model.step(w)
print(w)
