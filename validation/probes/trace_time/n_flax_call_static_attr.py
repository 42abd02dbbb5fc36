# source: https://docs.jax.dev/en/latest/control-flow.html
# expect: none
# runtime: ok
import flax.linen as nn
import jax
import jax.numpy as jnp


class Block(nn.Module):
    features: int
    residual: bool = True

    @nn.compact
    def __call__(self, x):
        h = nn.Dense(self.features)(x)
        if self.residual:
            h = h + x
        return h.reshape(x.shape[0], -1)


model = Block(3)
params = model.init(jax.random.key(0), jnp.ones((2, 3)))
print(jax.jit(model.apply)(params, jnp.ones((2, 3))))
