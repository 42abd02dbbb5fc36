# source: https://flax.readthedocs.io/en/latest/nnx_basics.html
# expect: JIT801 at line 14
# runtime: ERROR TracerBoolConversionError
import jax.numpy as jnp
from flax import nnx


class Gate(nnx.Module):
    def __init__(self, rngs):
        self.linear = nnx.Linear(3, 3, rngs=rngs)

    def __call__(self, x):
        h = self.linear(x)
        if h.sum() > 0:
            return h
        return -h


@nnx.jit
def forward(model, x):
    return model(x)


print(forward(Gate(nnx.Rngs(0)), jnp.ones((2, 3))))
