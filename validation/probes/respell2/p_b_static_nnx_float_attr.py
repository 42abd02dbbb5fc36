# source: validation/threads/heldout6/eqx1062_int_field_changes_each_step.py (a Python scalar field of the module changes each step, so the module's static part changes), an nnx.Module's float attribute annealed each epoch, nnx.jit
# expect: JIT403 at line 25, 26
# expect: JIT401 at line 25, 26
# runtime: COMPILES 3 CALLS 3
import jax.numpy as jnp
from flax import nnx


class Gumbel(nnx.Module):
    def __init__(self):
        self.w = nnx.Param(jnp.ones(3))
        self.temperature = 1.0

    def __call__(self, x):
        return (x * self.w) / self.temperature


@nnx.jit
def forward(model, x):
    return model(x)


model = Gumbel()
for epoch in range(3):
    model.temperature = 1.0 / (epoch + 1)  # <-
    print(forward(model, jnp.ones(3)))  # <-
