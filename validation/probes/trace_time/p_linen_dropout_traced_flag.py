# source: https://flax.readthedocs.io/en/latest/guides/training_techniques/dropout.html (the flag traced)
# expect: JIT802 at line 13
# runtime: ERROR TracerBoolConversionError
import flax.linen as nn
import jax
import jax.numpy as jnp


class Net(nn.Module):
    @nn.compact
    def __call__(self, x, deterministic):
        x = nn.Dense(4)(x)
        return nn.Dropout(rate=0.5, deterministic=deterministic)(x)


model = Net()
params = model.init(jax.random.key(0), jnp.ones((2, 3)), True)


@jax.jit
def evaluate(params, x, deterministic):
    return model.apply(params, x, deterministic, rngs={"dropout": jax.random.key(1)})


print(evaluate(params, jnp.ones((2, 3)), True))
