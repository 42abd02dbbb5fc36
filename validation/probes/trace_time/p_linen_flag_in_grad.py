# source: https://flax.readthedocs.io/en/latest/guides/training_techniques/dropout.html
# expect: JIT801 at line 13
# runtime: ERROR TracerBoolConversionError
import flax.linen as nn
import jax
import jax.numpy as jnp


class Net(nn.Module):
    @nn.compact
    def __call__(self, x, train):
        x = nn.Dense(4)(x)
        if train:
            x = nn.Dropout(0.5, deterministic=False)(x)
        return x


model = Net()


def loss_fn(params, x, train):
    return model.apply(params, x, train=train, rngs={"dropout": jax.random.key(1)}).sum()


@jax.jit
def step(params, x, train):
    return jax.grad(loss_fn)(params, x, train)


params = model.init(jax.random.key(0), jnp.ones((2, 3)), train=False)
print(step(params, jnp.ones((2, 3)), True))
