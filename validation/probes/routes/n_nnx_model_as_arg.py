# source: https://flax.readthedocs.io/en/latest/guides/transforms.html (nnx.jit: pass the module as an argument)
# expect: none
# runtime: COMPILES 1 CALLS 2
import jax.numpy as jnp
from flax import nnx

model = nnx.Linear(2, 1, rngs=nnx.Rngs(0))


@nnx.jit
def predict(model, x):
    return model(x)


print(predict(model, jnp.ones((1, 2))))
model.kernel.value = model.kernel.value * 2
print(predict(model, jnp.ones((1, 2))))
