# source: fixtures/hashed_tracers/dict_lookup_by_traced_code.py (a dict looked up with a traced key), `.get` with a default on a dict attribute of a config object, jit as a decorator with `from jax import jit`
# expect: JIT809 at line 17
# runtime: ERROR TypeError
import jax.numpy as jnp
from jax import jit


class Config:
    class_weights = {0: 1.0, 1: 0.5, 2: 0.25}


cfg = Config()


@jit
def weighted_loss(loss, label):
    return loss * cfg.class_weights.get(label, 1.0)  # <-


print(weighted_loss(jnp.float32(2.0), jnp.int32(1)))
