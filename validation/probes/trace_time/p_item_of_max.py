# source: https://docs.jax.dev/en/latest/errors.html#jax.errors.ConcretizationTypeError
# expect: JIT802 at line 10
# runtime: ERROR ConcretizationTypeError
import jax
import jax.numpy as jnp


@jax.jit
def peak(x):
    m = x.max().item()
    return x / m


print(peak(jnp.arange(1.0, 4.0)))
