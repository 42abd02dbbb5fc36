# source: https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html (pure functions: globals are read once, at trace time)
# expect: JIT601 at line 12, 17
# runtime: STALE COMPILES 1 CALLS 3
import jax
import jax.numpy as jnp

lr = 0.1


@jax.jit
def step(params):
    return params - lr * params


params = jnp.ones(2)
for epoch in range(3):
    lr = 0.1 / (epoch + 1)
    params = step(params)
    print(params)
