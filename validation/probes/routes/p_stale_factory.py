# source: https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html (pure functions: globals are read once, at trace time)
# expect: JIT601 at line 13, 19
# runtime: STALE COMPILES 1 CALLS 2
import jax
import jax.numpy as jnp

SCALE = 2.0


def make_step():
    @jax.jit
    def step(x):
        return x * SCALE
    return step


step = make_step()
print(step(jnp.ones(2)))
SCALE = 3.0
print(step(jnp.ones(2)))
