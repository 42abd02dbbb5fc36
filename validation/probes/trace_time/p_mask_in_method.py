# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.NonConcreteBooleanIndexError
# expect: JIT806 at line 13
# runtime: ERROR NonConcreteBooleanIndexError
import equinox as eqx
import jax
import jax.numpy as jnp


class Selector(eqx.Module):
    threshold: float

    def __call__(self, x):
        return x[x > self.threshold].sum()


@eqx.filter_jit
def run(model, x):
    return model(x)


print(run(Selector(0.5), jnp.arange(3.0)))
