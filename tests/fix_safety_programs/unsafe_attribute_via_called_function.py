import jax
import jax.numpy as jnp


class Config:
    scale = 1.0


cfg = Config()


def anneal():
    cfg.scale = cfg.scale * 0.5


x = jnp.ones(2)
for step in range(3):
    x = jax.jit(lambda v: v + cfg.scale)(x)
    anneal()
print(x.tolist())
