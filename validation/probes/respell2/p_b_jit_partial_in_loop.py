# source: validation/threads/heldout6/jaxpr27980_jit_of_new_lambda_in_loop.py (jax.jit of a new callable made on every iteration), functools.partial binding the loop value
# expect: JIT105 at line 16
# runtime: COMPILES 3 CALLS 3
import functools

import jax
import jax.numpy as jnp


def energy(x, temperature):
    return jnp.sum(x ** 2) / temperature


x = jnp.ones(3)
for temperature in [1.0, 2.0, 4.0]:
    f = jax.jit(functools.partial(energy, temperature=temperature))  # <-
    print(f(x))
