# source: https://flax.readthedocs.io/en/latest/api_reference/flax.linen/module.html (a field set per call)
# expect: JIT801 at line 15
# runtime: ERROR TracerBoolConversionError
import flax.linen as nn
import jax
import jax.numpy as jnp


class Net(nn.Module):
    train: bool = False

    @nn.compact
    def __call__(self, x):
        x = nn.Dense(4)(x)
        return x * 0.5 if self.train else x


@jax.jit
def step(params, x, train):
    net = Net(train=train)
    return net.apply(params, x)


params = Net().init(jax.random.key(0), jnp.ones((2, 3)))
print(step(params, jnp.ones((2, 3)), True))
