# source: validation/threads/heldout5/jax196_python_if_on_traced_int.py (Python control flow on a traced value), as a `while` loop on a convergence test, jit as a call
# expect: JIT801 at line 10
# runtime: ERROR TracerBoolConversionError
import jax
import jax.numpy as jnp


def newton_sqrt(a, x0):
    x = x0
    while jnp.abs(x * x - a) > 1e-4:  # <-
        x = 0.5 * (x + a / x)
    return x


solve = jax.jit(newton_sqrt)
print(solve(jnp.float32(2.0), jnp.float32(1.0)))
