# source: ../shared/realworld/cases2/jax3701_dataclass_config_static.py (a plain dataclass config as a static argument), with `from dataclasses import dataclass` and annotations
# expect: JIT301 at line 23
# runtime: ERROR ValueError
from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp


@dataclass
class Config:
    width: int = 3
    scale: float = 2.0


@partial(jax.jit, static_argnums=(1,))
def apply(x: jax.Array, cfg: Config) -> jax.Array:
    return x[: cfg.width] * cfg.scale


cfg: Config = Config()
print(apply(jnp.arange(5.0), cfg))  # <-
