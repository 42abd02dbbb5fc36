# source: https://docs.jax.dev/en/latest/control-flow.html
# expect: none
# runtime: ok
import jax
import jax.numpy as jnp


@jax.jit
def f(x):
    return jax.lax.cond(x < 3, lambda v: 3.0 * v ** 2, lambda v: -4.0 * v, x)


print(f(2.0))
