# source: ../shared/realworld/cases2/jaxpr22098_tracer_bool_and.py (Python boolean logic on traced values), as a conditional expression
# expect: JIT801 at line 9
# runtime: ERROR TracerBoolConversionError
import jax
import jax.numpy as jnp


def relu_like(x: jax.Array, y: jax.Array) -> jax.Array:
    return x if (x > 0) and (y > 0) else -x  # <-


fast = jax.jit(relu_like)
print(fast(jnp.float32(1.0), jnp.float32(2.0)))
