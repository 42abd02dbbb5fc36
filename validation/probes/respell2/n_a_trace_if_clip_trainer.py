# source: look-alike of p_a_trace_if_clip_trainer: the clip with jnp.where, the `if` on a Python float
# expect: none
# runtime: COMPILES 1 CALLS 3
import jax
import jax.numpy as jnp


def clip_by_norm(g, max_norm):
    norm = jnp.linalg.norm(g)
    if max_norm <= 0:
        return g
    return jnp.where(norm > max_norm, g * (max_norm / norm), g)


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
