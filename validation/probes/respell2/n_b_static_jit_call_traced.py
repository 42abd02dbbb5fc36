# source: validation/threads/heldout6/eqx1062_int_field_changes_each_step.py, look-alike: the step traced (no static_argnums), jnp.minimum in place of min
# expect: none
# runtime: COMPILES 1 CALLS 4
import jax
import jax.numpy as jnp


def warmup(w, step):
    return w * jnp.minimum(1.0, (step + 1) / 4)


warmup_jit = jax.jit(warmup)
w = jnp.ones(2)
step = 0
while step < 4:
    w = warmup_jit(w, step)
    step += 1
print(w)
