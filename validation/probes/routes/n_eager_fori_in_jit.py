# source: https://docs.jax.dev/en/latest/control-flow.html (lax loops outside jit compile their body each call)
# expect: none
# runtime: COMPILES 1 CALLS 3
import jax
import jax.numpy as jnp


@jax.jit
def step(x):
    return jax.lax.fori_loop(0, 5, lambda i, v: v * 1.1, x)


x = jnp.ones(3)
for _ in range(3):
    x = step(x)
print(x)
