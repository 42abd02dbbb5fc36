# source: validation/threads/heldout4/jax2273_assert_on_traced_value_in_jit.py (assert on a traced value), in a helper method of a model class whose forward is jitted with partial(jax.jit, static_argnums=0)
# expect: JIT801 at line 15
# runtime: ERROR TracerBoolConversionError
from functools import partial

import jax
import jax.numpy as jnp


class Model:
    def __init__(self, scale):
        self.scale = scale

    def _check(self, h):
        assert jnp.isfinite(h).all(), "non-finite activations"  # <-
        return h

    @partial(jax.jit, static_argnums=0)
    def forward(self, x):
        h = jnp.tanh(x * self.scale)
        return self._check(h)


model = Model(2.0)
print(model.forward(jnp.ones(3)))
