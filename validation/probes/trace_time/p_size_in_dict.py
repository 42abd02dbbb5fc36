# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.ConcretizationTypeError
# expect: JIT802 at line 10
# runtime: ERROR TypeError
import jax
import jax.numpy as jnp


@jax.jit
def build(config, x):
    hidden = jnp.ones((x.shape[0], config["width"]))
    return hidden * x[:, None]


print(build({"width": 4}, jnp.ones(3)))
