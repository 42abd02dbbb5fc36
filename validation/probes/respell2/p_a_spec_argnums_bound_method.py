# source: validation/threads/heldout4/jax10601_static_argnums_out_of_range.py (static_argnums beyond the parameters), counting self in the argnums of a bound method jitted in __init__
# expect: JIT702 at line 10
# runtime: ERROR ValueError
import jax
import jax.numpy as jnp


class Pooler:
    def __init__(self):
        self.pool = jax.jit(self._pool, static_argnums=(2,))  # <-

    def _pool(self, x, window):
        return x.reshape(-1, window).mean(axis=1)


print(Pooler().pool(jnp.arange(8.0), 2))
