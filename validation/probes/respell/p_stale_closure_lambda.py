# source: ../shared/realworld/cases/jax1426_stale_closure_local_var.py (a jitted closure over a local that changes later), the loss a lambda
# expect: JIT601 at line 10
# runtime: STALE COMPILES 1 CALLS 2
import jax
import jax.numpy as jnp


def run():
    a = 10.0
    loss = lambda v: jnp.sum(v ** 2) * a  # <-
    grad = jax.jit(jax.grad(loss))
    print(grad(jnp.ones(2)))
    a = 20.0
    print(grad(jnp.ones(2)))


run()
