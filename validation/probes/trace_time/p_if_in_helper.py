# source: https://docs.jax.dev/en/latest/control-flow.html
# expect: JIT801 at line 10
# runtime: ERROR TracerBoolConversionError
import jax
import jax.numpy as jnp


def clip_norm(g, limit):
    norm = jnp.linalg.norm(g)
    if norm > limit:
        return g * (limit / norm)
    return g


@jax.jit
def update(params, grads):
    return params - 0.1 * clip_norm(grads, 1.0)


print(update(jnp.ones(3), jnp.ones(3)))
