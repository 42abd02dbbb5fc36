# source: look-alike of p_unhashable_dataclass_annot: the dataclass is frozen (hashable)
# expect: none
# runtime: COMPILES 1 CALLS 1
from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp


@dataclass(frozen=True)
class Config:
    width: int = 3
    scale: float = 2.0


@partial(jax.jit, static_argnums=(1,))
def apply(x: jax.Array, cfg: Config) -> jax.Array:
    return x[: cfg.width] * cfg.scale


cfg: Config = Config()
print(apply(jnp.arange(5.0), cfg))
