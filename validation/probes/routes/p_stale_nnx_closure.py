# source: https://flax.readthedocs.io/en/latest/guides/transforms.html (nnx.jit: pass the module as an argument)
# expect: JIT610 at line 12, 16
# runtime: STALE COMPILES 1 CALLS 2
import jax.numpy as jnp
from flax import nnx

model = nnx.Linear(2, 1, rngs=nnx.Rngs(0))


@nnx.jit
def predict(x):
    return model(x)


print(predict(jnp.ones((1, 2))))
model.kernel.value = model.kernel.value * 2
print(predict(jnp.ones((1, 2))))
