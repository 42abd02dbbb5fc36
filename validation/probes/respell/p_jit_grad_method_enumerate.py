# source: ../shared/realworld/cases/jax2515_jit_grad_inside_function.py (jax.jit(jax.grad(f)) built inside the function called per step), on self with enumerate
# expect: JIT102 at line 16
# runtime: COMPILES 3 CALLS 3
import jax
import jax.numpy as np


class Trainer:
    def __init__(self, lr: float = 0.1):
        self.lr = lr

    def update(self, w, batch):
        def loss(w, b):
            return np.sum((w * b - 1.0) ** 2)

        g = jax.jit(jax.grad(loss))(w, batch)  # <-
        return w - self.lr * g


trainer = Trainer()
w = np.ones(2)
batches = [np.full(2, 0.5 * (i + 1)) for i in range(3)]
for i, batch in enumerate(batches):
    w = trainer.update(w, batch)
print(w)
