# source: look-alike of p_a_trace_scan_length_rollout: the horizon static too
# expect: none
# runtime: COMPILES 1 CALLS 1
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


class Env:
    def __init__(self, gain):
        self.gain = gain

    @partial(jax.jit, static_argnums=(0, 2))
    def rollout(self, state, horizon):
        def step(s, _):
            s = s * self.gain
            return s, s.sum()

        _, rewards = lax.scan(step, state, None, length=horizon)
        return rewards


env = Env(0.9)
print(env.rollout(jnp.ones(2), 5))
