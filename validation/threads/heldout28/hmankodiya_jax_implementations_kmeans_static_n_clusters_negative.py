# source: https://github.com/hmankodiya/jax-implementations/blob/36c41a6db4ff967ef2917fcbb0e132e9719188ca/kmeans/kmeans.ipynb
# expect: none
# runtime: COMPILES 2 CALLS 800
# why: the jitted staticmethods are defined once; n_clusters is a static int that never changes, and the jitted compute_norm called inside the jitted assign_centroids is simply inlined: each compiles once for 400 fit iterations (2 compiles for 800 calls).
# --- measurement harness: counts XLA backend compiles per jitted function name ---
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")
from jax import monitoring as _monitoring

_COMPILED = []  # one entry per XLA compile, e.g. "jit(step)"


def _on_duration(event, duration_secs, **kwargs):
    if event == "/jax/core/compile/backend_compile_duration":
        _COMPILED.append(kwargs.get("fun_name"))


_monitoring.register_event_duration_secs_listener(_on_duration)


def _report(targets, calls):
    n = sum(1 for name in _COMPILED if name in targets)
    print(f"COMPILES {n} CALLS {calls}")


# ---- kmeans/utils.py (plotting helpers cut; see note) ----
import jax
import jax.numpy as jnp
# import matplotlib.pyplot as plt  # scaffolding: matplotlib is not installed


def multimodal_random_generator(
    key, shape, n_modes=3, minval=1.0, maxval=20.0, separation_factor=1.0
):
    """
    Generate a multivariate dataset with multiple modalities using a mixture of Gaussians.
    Allows control over cluster separation.

    Args:
        key (jax.random.PRNGKey): Random key for reproducibility.
        shape (tuple): Desired output shape (batch_size, features).
        n_modes (int): Number of Gaussian clusters.
        minval (float): Minimum base value for means.
        maxval (float): Maximum base value for means.
        separation_factor (float): Controls how far apart cluster centers are.

    Returns:
        jnp.ndarray: Multimodal random samples.
        jnp.ndarray: Cluster indices (which Gaussian cluster each sample belongs to).
    """
    key, subkey1, subkey2, subkey3, subkey4 = jax.random.split(key, 5)

    batch_size, features = shape

    # Generate normalized random directions for means
    raw_directions = jax.random.normal(subkey1, shape=(n_modes, features))
    norms = jnp.linalg.norm(raw_directions, axis=1, keepdims=True) + 1e-8
    unit_directions = raw_directions / norms

    # Spread means out along those directions with separation_factor
    mean_magnitudes = jax.random.uniform(
        subkey2, shape=(n_modes, 1), minval=minval, maxval=maxval
    )
    means = unit_directions * mean_magnitudes * separation_factor

    # Random scales for clusters
    scales = jax.random.uniform(
        subkey3, shape=(n_modes, features), minval=0.5, maxval=3.0
    )

    # Assign clusters to each sample
    cluster_assignments = jax.random.randint(
        subkey4, shape=(batch_size,), minval=0, maxval=n_modes
    )

    # Generate noise
    key, subkey5 = jax.random.split(key)
    noise = jax.random.normal(subkey5, shape=(batch_size, features))

    selected_means = means[cluster_assignments]
    selected_scales = scales[cluster_assignments]

    samples = selected_means + selected_scales * noise

    return samples, means, cluster_assignments




def plot_features(data, clusters=None, centroids=None, title="Clusters"):  # scaffolding: no-op stand-in for the matplotlib helper
    pass  # scaffolding


def plot_centroid_trajectory(centroids_history, data=None, clusters=None):  # scaffolding: no-op stand-in for the matplotlib helper
    pass  # scaffolding


# ---- kmeans/kmeans.py ----
from functools import partial
import jax
import jax.numpy as jnp


class KMeans:
    def __init__(
        self,
        x,
        centroids=None,
        n_clusters=8,
        init="auto",
        max_iter=300,
        tol=1e-4,
        seed=42,
    ):
        self.key = jax.random.PRNGKey(seed=seed)
        self.n_samples, self.input_dims = x.shape
        self.n_clusters = n_clusters
        self.init = init
        self.max_iter = max_iter
        self.tol = tol

        self.x = x
        self.centroids = self.init_centroids() if centroids is None else centroids

    def init_centroids(self):
        if self.init == "kmeans++":
            NotImplementedError("kmeans++ initialization strat not implemented")
        elif self.init == "auto":
            indices = jnp.arange(self.n_samples)
            random_indices = jax.random.choice(
                self.key, indices, shape=(self.n_clusters,), replace=False
            )
            centroids = self.x[random_indices]
            return centroids
        else:
            raise ValueError(f"{self.init_strategy} not a valid strategy")

    @staticmethod
    @jax.jit
    def compute_norm(x, y):
        x_i = x[:, None, :]  # Shape (N, 1, D)
        y_j = y[None, :, :]  # Shape (1, K, D)
        distances = jnp.sum((x_i - y_j) ** 2, axis=-1)  # Squared Euclidean
        return distances

    @staticmethod
    @partial(jax.jit)
    def assign_centroids(x, centroids):
        distances = KMeans.compute_norm(x, centroids)
        assignments = distances.argmin(axis=-1)
        return assignments, distances

    # new_centroids = centroids  # jnp.zeros((n_clusters, input_dims))

    @staticmethod
    @partial(jax.jit, static_argnums=(2,))
    def update_centroids(x, assignments, n_clusters):
        def update_centroid(i):
            mask = assignments == i  # shape: (n,)
            cluster_points = jnp.where(mask[:, None], x, 0.0)
            return cluster_points.sum(axis=0) / mask.sum(axis=0)

        new_centroids = jax.vmap(update_centroid)(jnp.arange(n_clusters))
        return new_centroids

    def fit(self, verbose=False, track_history=False):
        centroids = self.centroids
        centroids_history = [] if track_history else None
        assignment_history = [] if track_history else None

        for i in range(self.max_iter):
            assignments, distances = KMeans.assign_centroids(self.x, centroids)
            centroids = KMeans.update_centroids(self.x, assignments, self.n_clusters)
            # print(centroids, assignments)
            if verbose and i % 10 == 0:
                print(f"Epoch {i}: distance = {distances.mean():.4f}")

            if track_history:
                assignment_history.append(assignments)
                centroids_history.append(centroids)

        self.centroids = centroids
        self.assignments = assignments

        if track_history:
            return (
                centroids,
                assignments,
                distances.mean(),
                centroids_history,
                assignment_history,
            )
        else:
            return centroids, assignments, distances.mean()

    def predict(self, x):
        distances = self.compute_norm(x, self.centroids)
        return distances.argmin(axis=1)


# ---- kmeans/kmeans.ipynb ----
# cell 0
import numpy as np

import jax
import jax.numpy as jnp

# from utils import multimodal_random_generator, plot_features  # scaffolding: inlined above
# cell 1
# Generate multimodal data
key = jax.random.PRNGKey(100)
n_samples = 10000
n_features = 2
n_modes = 4  # Number of clusters

random_arr, cluster_means, cluster_assignments = multimodal_random_generator(
    key, shape=(n_samples, n_features), n_modes=n_modes, minval=1, maxval=20
)
# random_arr = (random_arr - random_arr.mean(axis=0))/(random_arr.std(axis=0))
# Visualize
plot_features(random_arr, clusters=cluster_assignments)
# cell 3
import jax
import jax.numpy as jnp
# from kmeans import KMeans  # scaffolding: inlined above
# from utils import plot_centroid_trajectory  # scaffolding: inlined above
# cell 4
kmeans = KMeans(
    random_arr, n_clusters=n_modes, centroids=None, max_iter=200, seed=42
)
# cell 5
cluster_means
# cell 6
centroids, assignments, distance, centroids_history, assignment_history = kmeans.fit(
    verbose=True, track_history=True
)
plot_features(random_arr, clusters=assignments, centroids=centroids)
# cell 7
plot_centroid_trajectory(centroids_history=centroids_history, data=random_arr, clusters=assignments)
# cell 8
# %%timeit  # scaffolding: the IPython magic is removed; the cell body runs once
centroids, assignments, distance = kmeans.fit(
    verbose=False, track_history=False
)

_report({"jit(assign_centroids)", "jit(update_centroids)", "jit(compute_norm)"}, 2 * 2 * 200)  # scaffolding
