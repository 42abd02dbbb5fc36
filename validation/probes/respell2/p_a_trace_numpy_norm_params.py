# source: validation/threads/heldout6/jax8572_numpy_check_on_traced_grid.py (NumPy on a traced value), `import numpy as onp` on a dict of parameters in a jitted regularised loss
# expect: JIT803 at line 10
# runtime: ERROR TracerArrayConversionError
import jax
import jax.numpy as jnp
import numpy as onp


def l2(params):
    return sum(onp.linalg.norm(p) ** 2 for p in params.values())  # <-


@jax.jit
def loss(params, x):
    pred = x @ params["w"] + params["b"]
    return jnp.mean(pred ** 2) + 1e-3 * l2(params)


params = {"w": jnp.ones((3, 2)), "b": jnp.zeros(2)}
print(loss(params, jnp.ones((4, 3))))
