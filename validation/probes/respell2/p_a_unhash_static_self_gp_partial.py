# source: validation/threads/heldout5/jax5344_static_argnums_zero_on_bound_method.py (static_argnums=0 on a bound method makes the first argument after self static), the jit applied in __init__ through functools.partial(jax.jit, static_argnums=0)
# expect: JIT301 at line 22
# runtime: ERROR ValueError
from functools import partial

import jax
import jax.numpy as jnp


class GP:
    def __init__(self, alpha=1e-3):
        self.alpha = alpha
        self.fit = partial(jax.jit, static_argnums=0)(self.fit)

    def fit(self, x, y):
        K = x @ x.T + self.alpha * jnp.eye(x.shape[0])
        return jnp.linalg.solve(K, y)


gp = GP()
x = jnp.linspace(0.0, 1.0, 4)[:, None]
print(gp.fit(x, jnp.sin(x[:, 0])))  # <-
