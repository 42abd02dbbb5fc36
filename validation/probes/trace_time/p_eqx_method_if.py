# source: https://docs.jax.dev/en/latest/control-flow.html
# expect: JIT801 at line 13
# runtime: ERROR TracerBoolConversionError
import equinox as eqx
import jax
import jax.numpy as jnp


class Scaler(eqx.Module):
    scale: jax.Array

    def __call__(self, x):
        if self.scale > 1.0:
            return x / self.scale
        return x * self.scale


@eqx.filter_jit
def apply(model, x):
    return model(x)


print(apply(Scaler(jnp.array(2.0)), jnp.ones(3)))
