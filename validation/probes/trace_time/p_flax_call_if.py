# source: https://docs.jax.dev/en/latest/control-flow.html
# expect: JIT801 at line 13
# runtime: ERROR TracerBoolConversionError
import flax.linen as nn
import jax
import jax.numpy as jnp


class Gate(nn.Module):
    @nn.compact
    def __call__(self, x):
        h = nn.Dense(4)(x)
        if h.mean() > 0:
            return h
        return -h


model = Gate()
params = model.init(jax.random.key(0), jnp.ones((2, 3)))
print(jax.jit(model.apply)(params, jnp.ones((2, 3))))
