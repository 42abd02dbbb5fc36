# source: ../shared/realworld/cases/jax4712_list_static_arg.py (a list as a static argument), bound by a tuple unpack
# expect: JIT301 at line 14
# runtime: ERROR ValueError
import jax
import jax.numpy as jnp


def add(dummy, x):
    return x + len(dummy)


add_fast = jax.jit(add, static_argnums=0)
dummy, real = [0], jnp.zeros(3)
print(add_fast(dummy, real))  # <-
