# source: ../shared/realworld/cases2/jax15761_varying_index_length.py (an argument whose length changes per call), as a growing list in a while loop
# expect: JIT501 at line 16
# runtime: COMPILES 3 CALLS 3
import jax
import jax.numpy as jnp


@jax.jit
def mean(values):
    return jnp.mean(values)


history = []
while len(history) < 3:
    history.append(float(len(history)))
    print(mean(jnp.asarray(history)))  # <-
