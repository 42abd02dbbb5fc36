# source: validation/threads/heldout4/jax1922_axis_tuple_kwarg_traced.py (a traced axis), the axes passed positionally through a local tuple in a jitted normalisation method
# expect: JIT802 at line 13
# runtime: ERROR TracerIntegerConversionError
import jax
import jax.numpy as jnp


class LayerNorm:
    def __init__(self):
        self.apply = jax.jit(self._apply)

    def _apply(self, x, axes):
        mu = jnp.mean(x, axes, keepdims=True)  # <-
        return x - mu


print(LayerNorm().apply(jnp.ones((2, 3)), (1,)))
