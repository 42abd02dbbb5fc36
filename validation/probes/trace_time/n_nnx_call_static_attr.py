# source: https://flax.readthedocs.io/en/latest/nnx_basics.html
# expect: none
# runtime: ok
import jax.numpy as jnp
from flax import nnx


class Gate(nnx.Module):
    def __init__(self, rngs, flip):
        self.linear = nnx.Linear(3, 3, rngs=rngs)
        self.flip = flip  # a plain Python attribute: static under nnx.jit

    def __call__(self, x):
        h = self.linear(x)
        if self.flip:
            return -h
        return h


@nnx.jit
def forward(model, x):
    return model(x)


print(forward(Gate(nnx.Rngs(0), True), jnp.ones((2, 3))))
