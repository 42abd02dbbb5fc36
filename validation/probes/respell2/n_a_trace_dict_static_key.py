# source: look-alike of p_a_trace_dict_get_traced: the dict key a static argument of the jit
# expect: none
# runtime: COMPILES 1 CALLS 1
from functools import partial

import jax
import jax.numpy as jnp


class Config:
    class_weights = {"pos": 1.0, "neg": 0.5}


cfg = Config()


@partial(jax.jit, static_argnums=1)
def weighted_loss(loss, label):
    return loss * cfg.class_weights.get(label, 1.0)


print(weighted_loss(jnp.float32(2.0), "neg"))
