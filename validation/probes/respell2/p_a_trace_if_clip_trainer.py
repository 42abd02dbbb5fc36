# source: validation/threads/heldout5/jax196_python_if_on_traced_int.py (Python `if` on a traced value), in a helper called from a trainer method jitted as `self.update = jax.jit(self._update)`
# expect: JIT801 at line 10
# runtime: ERROR TracerBoolConversionError
import jax
import jax.numpy as jnp


def clip_by_norm(g, max_norm):
    norm = jnp.linalg.norm(g)
    if norm > max_norm:  # <-
        g = g * (max_norm / norm)
    return g


class Trainer:
    def __init__(self, lr, max_norm):
        self.lr = lr
        self.max_norm = max_norm
        self.update = jax.jit(self._update)

    def _update(self, w, g):
        g = clip_by_norm(g, self.max_norm)
        return w - self.lr * g


def main():
    trainer = Trainer(0.1, 1.0)
    w = jnp.ones(4)
    for _ in range(3):
        w = trainer.update(w, 2.0 * w)
    print(w)


main()
