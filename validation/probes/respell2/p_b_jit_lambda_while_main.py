# source: validation/threads/heldout6/jaxpr27980_jit_of_new_lambda_in_loop.py, `from jax import jit` of a lambda in a while loop in main()
# expect: JIT101 at line 12
# runtime: COMPILES 3 CALLS 3
import jax.numpy as jnp
from jax import jit


def main():
    w = jnp.ones(2)
    k = 0
    while k < 3:
        update = jit(lambda v: v * 0.5 + 1.0)  # <-
        w = update(w)
        k += 1
    print(w)


if __name__ == "__main__":
    main()
