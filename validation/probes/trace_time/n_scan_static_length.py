# source: https://docs.jax.dev/en/latest/control-flow.html
# expect: none
# runtime: ok
import jax
import jax.numpy as jnp


@jax.jit
def cumulative(x0):
    def body(c, _):
        return c + 1.0, c
    steps = 4
    return jax.lax.scan(body, x0, None, length=steps)[1]


print(cumulative(jnp.float32(0)))
