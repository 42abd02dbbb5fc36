import jax
import jax.numpy as jnp


def train(w, grads, lr):
    # One plain SGD step; lr is fixed for the whole run.
    def update(w, g):
        return w - lr * g  # a comment inside the body

    jitted_update = jax.jit(update)
    for g in grads:
        w = jitted_update(w, g)  # expect: JIT102
    return w


print(train(jnp.ones(3), [jnp.full(3, float(i)) for i in range(5)], 0.1).tolist())
