# source: look-alike of p_static_enumerate_lr: the learning rate is traced, not static
# expect: none
# runtime: COMPILES 1 CALLS 3
import jax
import jax.numpy as jnp


@jax.jit
def sgd(w, g, lr):
    return w - lr * g


w = jnp.ones(2)
for epoch, lr in enumerate([0.1, 0.05, 0.01]):
    w = sgd(w, jnp.full(2, float(epoch)), lr=lr)
print(w)
