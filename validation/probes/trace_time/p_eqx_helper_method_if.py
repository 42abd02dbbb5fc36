# source: https://docs.kidger.site/equinox/all-of-equinox/
# expect: JIT801 at line 14
# runtime: ERROR TracerBoolConversionError
import equinox as eqx
import jax
import jax.numpy as jnp


class Gate(eqx.Module):
    weight: jax.Array

    def score(self, x):
        s = jnp.dot(self.weight, x)
        if s > 0:
            return s
        return -s


@eqx.filter_jit
def run(model, x):
    return model.score(x)


print(run(Gate(jnp.ones(3)), jnp.ones(3)))
