# source: ../shared/realworld/cases2/jax5595_jit_method_self_traced.py (trace-time Python control flow in a jitted method), jitted as a bound method of an instance
# expect: JIT801 at line 13
# runtime: ERROR TracerBoolConversionError
import jax
import jax.numpy as jnp


class Model:
    def __init__(self, scale: float) -> None:
        self.scale = scale

    def loss(self, x: jax.Array) -> jax.Array:
        if x.sum() > 0:  # <-
            return x * self.scale
        return -x


model = Model(2.0)
loss_fn = jax.jit(model.loss)
print(loss_fn(jnp.ones(3)))
