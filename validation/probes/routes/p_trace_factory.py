# source: https://docs.jax.dev/en/latest/control-flow.html
# expect: JIT801 at line 10
# runtime: ERROR TracerBoolConversionError
import jax
import jax.numpy as jnp


def make_loss(threshold):
    def loss(x):
        if x.sum() > threshold:
            return x.sum()
        return 0.0
    return loss


print(jax.jit(make_loss(1.0))(jnp.ones(3)))
