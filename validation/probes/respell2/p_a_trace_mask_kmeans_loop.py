# source: validation/threads/heldout5/secretflow406_kmeans_boolean_mask_centroids.py (boolean-mask index in jit), the mask made per cluster in a Python loop, the update jitted as a call
# expect: JIT806 at line 11
# runtime: ERROR NonConcreteBooleanIndexError
import jax
import jax.numpy as jnp


def update_centroids(points, labels, k):
    centroids = []
    for c in range(k):
        members = points[labels == c]  # <-
        centroids.append(members.mean(axis=0))
    return jnp.stack(centroids)


update = jax.jit(update_centroids, static_argnums=2)
pts = jnp.array([[0.0, 0.0], [1.0, 1.0], [5.0, 5.0]])
print(update(pts, jnp.array([0, 0, 1]), 2))
