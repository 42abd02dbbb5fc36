# source: https://docs.jax.dev/en/latest/control-flow.html
# expect: none
# runtime: ok
import jax
import jax.numpy as jnp


@jax.jit
def f(x, bias=None):
    if bias is not None:
        x = x + bias
    return x


print(f(jnp.ones(3)), f(jnp.ones(3), jnp.ones(3)))
