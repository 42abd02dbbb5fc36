# source: validation/threads/heldout6/eqx1062_int_field_changes_each_step.py (filter_jit keeps Python scalars static), a Python float learning rate decayed each epoch passed straight to a filter_jit function
# expect: JIT401 at line 16
# runtime: COMPILES 4 CALLS 4
import equinox as eqx
import jax.numpy as jnp


@eqx.filter_jit
def sgd_step(w, lr):
    return w - lr * 2 * w


w = jnp.ones(3)
lr = 0.5
for epoch in range(4):
    w = sgd_step(w, lr)  # <-
    lr = lr * 0.9
print(w)
