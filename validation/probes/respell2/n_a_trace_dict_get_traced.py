# source: look-alike of p_a_trace_dict_get_traced: the dict turned into an array indexed by the traced label
# expect: none
# runtime: COMPILES 1 CALLS 1
import jax.numpy as jnp
from jax import jit


class Config:
    class_weights = {0: 1.0, 1: 0.5, 2: 0.25}


cfg = Config()
WEIGHTS = jnp.array([cfg.class_weights[k] for k in sorted(cfg.class_weights)])


@jit
def weighted_loss(loss, label):
    return loss * WEIGHTS[label]


print(weighted_loss(jnp.float32(2.0), jnp.int32(1)))
