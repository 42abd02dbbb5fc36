# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.ConcretizationTypeError
# expect: JIT802 at line 12
# runtime: ERROR ConcretizationTypeError
import jax
import jax.numpy as jnp


@jax.jit
def cumulative(x0, steps):
    def body(c, _):
        return c + 1.0, c
    return jax.lax.scan(body, x0, None, length=steps)[1]


print(cumulative(jnp.float32(0), 4))
