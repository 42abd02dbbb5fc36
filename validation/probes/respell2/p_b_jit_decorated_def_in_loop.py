# source: validation/threads/heldout6/jaxpr27980_jit_of_new_lambda_in_loop.py (a new jitted callable made on every iteration), a @jax.jit nested def inside the for loop body, closing over the loop value
# expect: JIT102 at line 10
# expect: JIT101 at line 10
# runtime: COMPILES 3 CALLS 3
import jax
import jax.numpy as jnp

x = jnp.ones(3)
for alpha in (0.1, 0.2, 0.3):
    @jax.jit  # <-
    def smooth(v):
        return v * (1 - alpha) + alpha

    x = smooth(x)
print(x)
