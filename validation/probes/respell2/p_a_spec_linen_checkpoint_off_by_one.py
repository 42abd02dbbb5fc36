# source: validation/threads/heldout6/openpipr1021_remat_static_argnums_off_by_one.py (nn.remat static_argnums not counting self), `nn.checkpoint` with the train flag's index counted without self, the block used in a Sequential-like loop
# expect: JIT704 at line 18
# runtime: ERROR TracerBoolConversionError
import flax.linen as nn
import jax
import jax.numpy as jnp


class Block(nn.Module):
    width: int = 4

    @nn.compact
    def __call__(self, x, mask, train):
        h = nn.Dense(self.width)(x)
        return x + nn.Dropout(0.1, deterministic=not train)(h)


CheckpointedBlock = nn.checkpoint(Block, static_argnums=(2,))  # <-


class Model(nn.Module):
    depth: int = 2

    @nn.compact
    def __call__(self, x, train=False):
        for _ in range(self.depth):
            x = CheckpointedBlock()(x, None, train)
        return x


model = Model()
params = model.init(jax.random.PRNGKey(0), jnp.ones((1, 4)))
print(model.apply(params, jnp.ones((1, 4))))
