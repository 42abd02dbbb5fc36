# source: https://docs.jax.dev/en/latest/control-flow.html (lax loops outside jit compile their body each call)
# expect: JIT520 at line 17
# expect: JIT101 at line 17
# runtime: COMPILES 3 CALLS 3
import jax.numpy as jnp
from jax import lax


def make_body(decay):
    def body(carry, _):
        return carry * decay, carry
    return body


x = jnp.ones(2)
for _ in range(3):
    x, _ = lax.scan(make_body(0.9), x, None, length=4)
print(x)
