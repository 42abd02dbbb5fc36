# source: look-alike of p_a_spec_argnums_bound_method: the argnums of a bound method counted without self
# expect: none
# runtime: COMPILES 1 CALLS 1
import jax
import jax.numpy as jnp


class Pooler:
    def __init__(self):
        self.pool = jax.jit(self._pool, static_argnums=(1,))

    def _pool(self, x, window):
        return x.reshape(-1, window).mean(axis=1)


print(Pooler().pool(jnp.arange(8.0), 2))
