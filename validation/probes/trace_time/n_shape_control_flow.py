# source: https://docs.jax.dev/en/latest/control-flow.html
# expect: none
# runtime: ok
import jax
import jax.numpy as jnp


@jax.jit
def g(x):
    y = 0.0
    if x.ndim == 2:
        x = x.ravel()
    for i in range(x.shape[0]):
        y = y + x[i]
    return y + len(x)


print(g(jnp.array([[1.0, 2.0], [3.0, 4.0]])))
