# source: validation/threads/heldout6/jaxpr23228_scan_traced_length.py (lax.scan length traced), `from jax import lax`, a rollout method jitted with a static self only
# expect: JIT802 at line 21
# runtime: ERROR ConcretizationTypeError
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


class Env:
    def __init__(self, gain):
        self.gain = gain

    @partial(jax.jit, static_argnums=0)
    def rollout(self, state, horizon):
        def step(s, _):
            s = s * self.gain
            return s, s.sum()

        _, rewards = lax.scan(step, state, None, length=horizon)  # <-
        return rewards


env = Env(0.9)
print(env.rollout(jnp.ones(2), 5))
