# source: look-alike of p_a_spec_linen_checkpoint_off_by_one: static_argnums counting self
# expect: none
# runtime: COMPILES 0 CALLS 0
import flax.linen as nn
import jax
import jax.numpy as jnp


class Block(nn.Module):
    width: int = 4

    @nn.compact
    def __call__(self, x, mask, train):
        h = nn.Dense(self.width)(x)
        return x + nn.Dropout(0.1, deterministic=not train)(h)


CheckpointedBlock = nn.checkpoint(Block, static_argnums=(3,))


class Model(nn.Module):
    depth: int = 2

    @nn.compact
    def __call__(self, x, train=False):
        for _ in range(self.depth):
            x = CheckpointedBlock()(x, None, train)
        return x


model = Model()
params = model.init(jax.random.PRNGKey(0), jnp.ones((1, 4)))
print(jnp.round(model.apply(params, jnp.ones((1, 4))), 3).tolist())
