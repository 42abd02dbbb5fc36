# source: issue 27: an array held in an equinox static field
# expect: JIT402 at line 22
# runtime: COMPILES 2 CALLS 2
import equinox as eqx
import jax
import jax.numpy as jnp


class Scale(eqx.Module):
    factor: jax.Array = eqx.field(static=True)

    def __call__(self, x):
        return x * self.factor


@eqx.filter_jit
def run(model, x):
    return model(x)


for value in (2.0, 3.0):
    print(run(Scale(jnp.asarray(value)), jnp.ones(3)))
