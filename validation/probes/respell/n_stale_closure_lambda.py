# source: look-alike of p_stale_closure_lambda: the factor is passed as an argument
# expect: none
# runtime: COMPILES 1 CALLS 2
import jax
import jax.numpy as jnp


def run():
    a = 10.0
    loss = lambda v, a: jnp.sum(v ** 2) * a
    grad = jax.jit(jax.grad(loss))
    print(grad(jnp.ones(2), a))
    a = 20.0
    print(grad(jnp.ones(2), a))


run()
