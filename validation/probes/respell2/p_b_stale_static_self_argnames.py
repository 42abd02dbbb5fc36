# source: validation/threads/heldout6/reservoirpy235_static_self_step_ignores_updates.py (a method jitted with static self reads attributes another method updates), static_argnames="self", functools.partial, the update loop in main()
# expect: JIT603 at line 16, 20
# runtime: STALE COMPILES 1 CALLS 3
import functools

import jax
import jax.numpy as jnp


class Scaler:
    def __init__(self, n):
        self.gain = jnp.ones(n)

    @functools.partial(jax.jit, static_argnames="self")
    def forward(self, x):
        return x * self.gain  # <-

    def adapt(self, x):
        y = self.forward(x)
        self.gain = self.gain * 0.5  # <-
        return y


def main():
    layer = Scaler(3)
    x = jnp.arange(3.0)
    for _ in range(3):
        print(layer.adapt(x))


main()
