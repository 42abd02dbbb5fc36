# source: validation/threads/heldout5/eqx307_filter_jit_on_nested_loss_fn.py (filter_jit of a function made inside the function called per step), eqx.filter_jit of a lambda in a trainer method
# expect: JIT101 at line 14
# expect: JIT102 at line 14
# runtime: COMPILES 3 CALLS 3
import equinox as eqx
import jax.numpy as jnp


class Trainer:
    def __init__(self, x):
        self.x = x

    def step(self, w):
        loss = eqx.filter_jit(lambda v: jnp.mean((self.x * v) ** 2))  # <-
        return w - 0.1 * loss(w)


trainer = Trainer(jnp.arange(2.0))
w = jnp.ones(2)
for _ in range(3):
    w = trainer.step(w)
print(w)
