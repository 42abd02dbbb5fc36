# source: validation/threads/heldout5/jax196_python_if_on_traced_int.py (Python `if` on a traced value), the loss in another module imported by name and jitted through jax.jit(jax.grad(...)) in main()
# expect: JIT801 at losses.py line 6
# runtime: ERROR TracerBoolConversionError
import jax
import jax.numpy as jnp

from losses import hinge


def main():
    grad_fn = jax.jit(jax.grad(hinge))
    w = jnp.zeros(2)
    x = jnp.ones((4, 2))
    y = jnp.array([1.0, -1.0, 1.0, -1.0])
    for _ in range(2):
        w = w - 0.1 * grad_fn(w, x, y, jnp.float32(1.0))
    print(w)


main()
