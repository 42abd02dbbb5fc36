# source: validation/threads/heldout6/eqx1062_int_field_changes_each_step.py, look-alike: the decayed learning rate an array, traced by filter_jit
# expect: none
# runtime: COMPILES 1 CALLS 4
import equinox as eqx
import jax.numpy as jnp


@eqx.filter_jit
def sgd_step(w, lr):
    return w - lr * 2 * w


w = jnp.ones(3)
lr = jnp.asarray(0.5)
for epoch in range(4):
    w = sgd_step(w, lr)
    lr = lr * 0.9
print(w)
