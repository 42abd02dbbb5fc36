# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.UnexpectedTracerError
# expect: JIT602 at line 12
# runtime: ERROR UnexpectedTracerError
import jax
import jax.numpy as jnp

seen = []


@jax.jit
def record(x):
    seen.append(x)
    return x * 2


record(jnp.ones(2))
print(seen[0] + 1)
