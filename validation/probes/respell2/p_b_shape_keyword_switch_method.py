# source: validation/threads/heldout6/jax523_kwarg_then_positional_call.py (one jitted function called positionally and by keyword), in a trainer's train and eval methods
# expect: JIT503 at line 21
# runtime: COMPILES 2 CALLS 3
import jax
import jax.numpy as jnp


@jax.jit
def loss_fn(params, batch):
    return jnp.mean((batch @ params) ** 2)


class Trainer:
    def __init__(self):
        self.params = jnp.ones(2)

    def train(self, batch):
        return loss_fn(self.params, batch)

    def evaluate(self, batch):
        return loss_fn(self.params, batch=batch)  # <-


t = Trainer()
b = jnp.ones((4, 2))
print(t.train(b), t.evaluate(b), t.train(b))
