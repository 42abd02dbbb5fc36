# source: fixtures/stale_values/factory_returns_jit_of_closure.py (a factory returns jax.jit of a closure over a module global changed later), the closure a lambda, the global a schedule constant changed in main()
# expect: JIT601 at line 11
# runtime: STALE COMPILES 1 CALLS 2
import jax
import jax.numpy as jnp

MOMENTUM = 0.9


def build_step():
    return jax.jit(lambda v, g: MOMENTUM * v + g)  # <-


def main():
    global MOMENTUM
    step = build_step()
    v = jnp.zeros(2)
    print(step(v, jnp.ones(2)))
    MOMENTUM = 0.5
    print(step(jnp.ones(2), jnp.ones(2)))


main()
