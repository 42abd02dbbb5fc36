import jax.numpy as jnp


def hinge(w, x, y, margin):
    scores = x @ w
    if margin:
        return jnp.mean(jnp.maximum(0.0, margin - y * scores))
    return jnp.mean(-y * scores)
