# source: validation/threads/heldout5/jax196_python_if_on_traced_int.py (Python `if` on a traced value), the function jitted through a transformation: `jax.jit(jax.value_and_grad(loss))`, the flag a second (non-differentiated, still traced) argument
# expect: JIT801 at line 10
# runtime: ERROR TracerBoolConversionError
import jax
import jax.numpy as jnp


def loss(w, margin):
    err = jnp.sum(w ** 2) - margin
    if margin > 0:  # <-
        return jnp.maximum(err, 0.0)
    return err


loss_and_grad = jax.jit(jax.value_and_grad(loss))
w = jnp.ones(3)
for margin in (jnp.float32(0.5), jnp.float32(1.0)):
    value, g = loss_and_grad(w, margin)
    print(value, g)
