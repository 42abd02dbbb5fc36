# source: validation/threads/heldout6/reservoirpy235_static_self_step_ignores_updates.py, look-alike: the updated gain is passed to the jitted function as an argument
# expect: none
# runtime: COMPILES 1 CALLS 3
import functools

import jax
import jax.numpy as jnp


@jax.jit
def _forward(gain, x):
    return x * gain


class Scaler:
    def __init__(self, n):
        self.gain = jnp.ones(n)

    def forward(self, x):
        return _forward(self.gain, x)

    def adapt(self, x):
        y = self.forward(x)
        self.gain = self.gain * 0.5
        return y


def main():
    layer = Scaler(3)
    x = jnp.arange(3.0)
    for _ in range(3):
        print(layer.adapt(x))


main()
