# source: https://docs.jax.dev/en/latest/control-flow.html
# expect: none
# runtime: ok
import flax.struct
import jax
import jax.numpy as jnp


@flax.struct.dataclass
class Config:
    scale: jax.Array
    use_bias: bool = flax.struct.field(pytree_node=False, default=True)
    width: int = flax.struct.field(pytree_node=False, default=4)


@jax.jit
def layer(cfg, x):
    y = x * cfg.scale
    if cfg.use_bias:
        y = y + jnp.ones(cfg.width)
    return y


print(layer(Config(jnp.array(2.0)), jnp.ones(4)))
