# source: ../shared/realworld/cases2/jax9023_static_self_reassigned_fn.py (a jitted method reads an attribute changed later), the jit built in __init__
# expect: JIT601 at line 14
# runtime: STALE COMPILES 1 CALLS 2
import jax
import jax.numpy as jnp


class Scaler:
    def __init__(self, scale):
        self.scale = scale
        self.apply = jax.jit(self._apply)

    def _apply(self, x):
        return x * self.scale  # <-


s = Scaler(2.0)
print(s.apply(jnp.ones(2)))
s.scale = 3.0
print(s.apply(jnp.ones(2)))
