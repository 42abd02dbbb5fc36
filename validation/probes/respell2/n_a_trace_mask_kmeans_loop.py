# source: look-alike of p_a_trace_mask_kmeans_loop: a masked sum, fixed shape
# expect: none
# runtime: COMPILES 1 CALLS 1
import jax
import jax.numpy as jnp


def update_centroids(points, labels, k):
    centroids = []
    for c in range(k):
        mask = (labels == c)[:, None]
        total = jnp.where(mask, points, 0.0).sum(axis=0)
        centroids.append(total / jnp.maximum(mask.sum(), 1))
    return jnp.stack(centroids)


update = jax.jit(update_centroids, static_argnums=2)
pts = jnp.array([[0.0, 0.0], [1.0, 1.0], [5.0, 5.0]])
print(update(pts, jnp.array([0, 0, 1]), 2))
