# source: look-alike of p_a_unhash_static_self_gp_partial: the static argument is self of a plain class (hashed by identity), jitted with partial(jax.jit, static_argnums=0) on the method
# expect: none
# runtime: COMPILES 1 CALLS 1
from functools import partial

import jax
import jax.numpy as jnp


class GP:
    def __init__(self, alpha=1e-3):
        self.alpha = alpha

    @partial(jax.jit, static_argnums=0)
    def fit(self, x, y):
        K = x @ x.T + self.alpha * jnp.eye(x.shape[0])
        return jnp.linalg.solve(K, y)


gp = GP()
x = jnp.linspace(0.0, 1.0, 4)[:, None]
print(gp.fit(x, jnp.sin(x[:, 0])))
