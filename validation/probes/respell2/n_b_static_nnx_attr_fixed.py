# source: validation/threads/heldout6/eqx1062_int_field_changes_each_step.py, look-alike: the nnx module's Python attribute set once before the loop, the annealed value a traced argument
# expect: none
# runtime: COMPILES 1 CALLS 3
import jax.numpy as jnp
from flax import nnx


class Gumbel(nnx.Module):
    def __init__(self):
        self.w = nnx.Param(jnp.ones(3))
        self.eps = 1e-6

    def __call__(self, x, temperature):
        return (x * self.w) / (temperature + self.eps)


@nnx.jit
def forward(model, x, temperature):
    return model(x, temperature)


model = Gumbel()
model.eps = 1e-3
for epoch in range(3):
    print(forward(model, jnp.ones(3), 1.0 / (epoch + 1)))
