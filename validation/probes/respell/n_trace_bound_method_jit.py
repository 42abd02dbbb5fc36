# source: look-alike of p_trace_bound_method_jit: jnp.where instead of the if
# expect: none
# runtime: COMPILES 1 CALLS 1
import jax
import jax.numpy as jnp


class Model:
    def __init__(self, scale: float) -> None:
        self.scale = scale

    def loss(self, x: jax.Array) -> jax.Array:
        return jnp.where(x.sum() > 0, x * self.scale, -x)


model = Model(2.0)
loss_fn = jax.jit(model.loss)
print(loss_fn(jnp.ones(3)))
