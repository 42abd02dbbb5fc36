# source: validation/threads/heldout6/jaxpr27980_jit_of_new_lambda_in_loop.py, look-alike: one jit, the loop value a traced argument
# expect: none
# runtime: COMPILES 1 CALLS 3
import functools

import jax
import jax.numpy as jnp


def energy(x, temperature):
    return jnp.sum(x ** 2) / temperature


f = jax.jit(energy)
x = jnp.ones(3)
for temperature in [1.0, 2.0, 4.0]:
    print(f(x, temperature))
