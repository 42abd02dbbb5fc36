# source: https://flax.readthedocs.io/en/latest/guides/training_techniques/batch_norm.html (the flag traced)
# expect: JIT802 at line 13
# runtime: ERROR TracerBoolConversionError
import flax.linen as nn
import jax
import jax.numpy as jnp


class Net(nn.Module):
    @nn.compact
    def __call__(self, x, train):
        x = nn.Dense(4)(x)
        return nn.BatchNorm()(x, use_running_average=train)


model = Net()
variables = model.init(jax.random.key(0), jnp.ones((2, 3)), False)


@jax.jit
def step(variables, x, train):
    return model.apply(variables, x, train, mutable=["batch_stats"])


print(step(variables, jnp.ones((2, 3)), False))
