# source: ../shared/realworld/cases/jax883_device_array_static_arg.py (an array as a static argument), wrapped by jnp.asarray
# expect: JIT301 at line 19
# runtime: ERROR ValueError
import jax
import jax.numpy as jnp


@jax.jit
def _unused(x):
    return x


def tile(x, reps):
    return jnp.tile(x, reps)


tile_fast = jax.jit(tile, static_argnames=["reps"])
reps = jnp.asarray(3)
print(tile_fast(jnp.ones(2), reps=reps))  # <-
