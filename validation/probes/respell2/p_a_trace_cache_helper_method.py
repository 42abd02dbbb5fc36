# source: fixtures/hashed_tracers/lru_cache_helper_with_tracer.py (functools cache hashing a tracer), `@functools.cache` on a helper called from a jitted method with a traced size
# expect: JIT809 at line 18
# runtime: ERROR TypeError
import functools

import jax
import jax.numpy as jnp


@functools.cache
def positions(scale):
    return jnp.arange(4) * scale


class Encoder:
    @functools.partial(jax.jit, static_argnums=0)
    def encode(self, x, scale):
        return x + positions(scale)  # <-


print(Encoder().encode(jnp.ones(4), jnp.float32(2.0)))
