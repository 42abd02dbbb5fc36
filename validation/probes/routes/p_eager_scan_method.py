# source: https://docs.jax.dev/en/latest/control-flow.html (lax loops outside jit compile their body each call)
# expect: JIT520 at line 14, 20
# expect: JIT101 at line 14, 20
# runtime: COMPILES 3 CALLS 3
import jax.numpy as jnp
from jax import lax


class Rollout:
    def __init__(self, decay):
        self.decay = decay

    def run(self, x):
        final, _ = lax.scan(lambda c, _: (c * self.decay, c), x, None, length=4)
        return final


rollout = Rollout(0.9)
for _ in range(3):
    print(rollout.run(jnp.ones(2)))
