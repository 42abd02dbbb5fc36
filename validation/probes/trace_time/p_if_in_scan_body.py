# source: https://docs.jax.dev/en/latest/control-flow.html
# expect: JIT801 at line 9
# runtime: ERROR TracerBoolConversionError
import jax
import jax.numpy as jnp


def step(carry, x):
    if x > carry:
        carry = x
    return carry, carry


def running_max(xs):
    return jax.lax.scan(step, xs[0], xs)[1]


print(running_max(jnp.array([1.0, 3.0, 2.0])))
