# source: https://docs.jax.dev/en/latest/control-flow.html
# expect: JIT801 at line 11
# runtime: ERROR TracerBoolConversionError
import jax
import jax.numpy as jnp


@jax.jit
def pick(pair):
    lo, hi = pair
    if lo > hi:
        return lo
    return hi


print(pick((jnp.array(1.0), jnp.array(2.0))))
