from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("hidden",))
def init_mlp(key, hidden):
    keys = jax.random.split(key, len(hidden) - 1)
    return [jax.random.normal(k, (m, n)) for k, m, n in zip(keys, hidden[:-1], hidden[1:])]
