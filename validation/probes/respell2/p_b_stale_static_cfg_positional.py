# source: fixtures/stale_values/static_config_mutated_in_helper_loop.py (a static config object mutated between calls), static_argnums positional, the mutation an augmented assignment in a training loop
# expect: JIT603 at line 16, 26
# runtime: STALE COMPILES 1 CALLS 3
import dataclasses

import jax
import jax.numpy as jnp


@dataclasses.dataclass(eq=False)
class Config:
    temperature: float = 1.0


def logits_fn(x, cfg):
    return x / cfg.temperature  # <-


logits = jax.jit(logits_fn, static_argnums=(1,))


def train(x):
    cfg = Config()
    for epoch in range(3):
        print(logits(x, cfg))
        cfg.temperature *= 2  # <-


train(jnp.ones(2))
