# source: validation/threads/heldout6/eqx1062_int_field_changes_each_step.py (a Python int that changes every step reaches a static position), jax.jit(f, static_argnums=1) applied at the call, the epoch counter of a while loop
# expect: JIT401 at line 15
# runtime: COMPILES 4 CALLS 4
import jax
import jax.numpy as jnp


def warmup(w, step):
    return w * min(1.0, (step + 1) / 4)


w = jnp.ones(2)
step = 0
while step < 4:
    w = jax.jit(warmup, static_argnums=1)(w, step)  # <-
    step += 1
print(w)
