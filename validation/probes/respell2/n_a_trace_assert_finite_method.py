# source: look-alike of p_a_trace_assert_finite_method: the assert reads a static shape
# expect: none
# runtime: COMPILES 1 CALLS 1
from functools import partial

import jax
import jax.numpy as jnp


class Model:
    def __init__(self, scale):
        self.scale = scale

    def _check(self, h):
        assert h.ndim == 1 and h.shape[0] > 0, "bad activations"
        return h

    @partial(jax.jit, static_argnums=0)
    def forward(self, x):
        h = jnp.tanh(x * self.scale)
        return self._check(h)


model = Model(2.0)
print(model.forward(jnp.ones(3)))
