# source: https://docs.jax.dev/en/latest/control-flow.html
# expect: JIT801 at line 9
# runtime: ERROR TracerBoolConversionError
import jax
import jax.numpy as jnp


def body(i, acc):
    if i % 2 == 0:
        return acc + i
    return acc


print(jax.lax.fori_loop(0, 10, body, jnp.float32(0)))
