# source: https://github.com/mrecos/KLRFome_JAX/commit/dd8c28a76acbc0dd9d3ad5b434b249667a7c0b08
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: quantile_embeddings resamples every bag to the same n_quantiles points before stacking, so the train matrix and the test cross-matrix are one call each of _pairwise_distances_uniform_jit and _cross_distances_uniform_jit on fixed (N, Q, L) stacks: one compile each.
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

"""
Sliced Wasserstein distance and Wasserstein-based distribution kernels.

This module provides:
- SlicedWassersteinDistance: Compute SW distance between sample sets
- WassersteinKernel: RBF kernel on Sliced Wasserstein distance
- Utilities for generating random projections
"""

import jax.numpy as jnp
import jax.random as random
from jax import jit, vmap
from functools import partial
from typing import Optional, List, Literal, Dict
from dataclasses import dataclass, field
from jaxtyping import Array, Float, PRNGKeyArray

# from ..data.formats import SampleCollection  # scaffolding: package import, class inlined below
# scaffolding: SampleCollection copied verbatim from klrfome/data/formats.py
@dataclass
class SampleCollection:
    """
    Represents samples from a single site or background location.
    
    Attributes:
        samples: Array of shape (n_samples, n_features)
        label: 1 for site, 0 for background
        id: Unique identifier for this location
        metadata: Optional dict for additional info (coordinates, etc.)
    """
    samples: Float[Array, "n_samples n_features"]
    label: Literal[0, 1]
    id: str
    metadata: Optional[Dict] = None
    
    @property
    def n_samples(self) -> int:
        """Number of samples in this collection."""
        return self.samples.shape[0]
    
    @property
    def n_features(self) -> int:
        """Number of features per sample."""
        return self.samples.shape[1]
    
    def mean_embedding(self) -> Float[Array, "n_features"]:
        """Compute the empirical mean of samples."""
        return jnp.mean(self.samples, axis=0)


# (cut: _compute_sw_jit and _compute_sw_from_sorted_jit, the legacy exact per-pair path)


@partial(jit, static_argnames=("p",))
def _pairwise_distances_uniform_jit(
    projected_sorted: Float[Array, "N n L"],
    p: int
) -> Float[Array, "N N"]:
    """JIT-compiled pairwise SW distances for uniform sample sizes."""
    def dist_row(x_sorted):
        if p == 1:
            return jnp.mean(jnp.abs(projected_sorted - x_sorted[None, :, :]), axis=(1, 2))
        diff = projected_sorted - x_sorted[None, :, :]
        return jnp.sqrt(jnp.mean(diff ** 2, axis=(1, 2)))

    return vmap(dist_row)(projected_sorted)


@partial(jit, static_argnames=("p",))
def _cross_distances_uniform_jit(
    A: Float[Array, "Na Q L"],
    B: Float[Array, "Nb Q L"],
    p: int,
) -> Float[Array, "Na Nb"]:
    """JIT cross SW distances between two uniform-size quantile stacks.

    A[i] vs B[j] for all i, j. Both must share the same (Q, L). Single compile.
    """
    def dist_row(a):  # a: (Q, L)
        diff = B - a[None, :, :]
        if p == 1:
            return jnp.mean(jnp.abs(diff), axis=(1, 2))
        return jnp.sqrt(jnp.mean(diff ** 2, axis=(1, 2)))

    return vmap(dist_row)(A)


def _resample_sorted_projections(
    sorted_proj: Float[Array, "n L"],
    target_n: int
) -> Float[Array, "target_n L"]:
    """Resample sorted projections to a target size via quantile interpolation."""
    n = sorted_proj.shape[0]
    if n == target_n:
        return sorted_proj

    source_q = (jnp.arange(n) + 0.5) / n
    target_q = (jnp.arange(target_n) + 0.5) / target_n

    def interp_col(col):
        return jnp.interp(target_q, source_q, col)

    return vmap(interp_col, in_axes=1, out_axes=1)(sorted_proj)


# (cut: _create_buckets, legacy bucketing helper)


def sample_unit_sphere(
    key: PRNGKeyArray,
    n_projections: int,
    dimension: int
) -> Float[Array, "n_projections dimension"]:
    """
    Sample unit vectors uniformly from the d-dimensional unit sphere.
    
    Method: Sample from standard normal, then normalize.
    This works because the standard normal is spherically symmetric.
    
    Parameters:
        key: JAX random key
        n_projections: Number of random directions to sample (L)
        dimension: Dimensionality of the space (d)
    
    Returns:
        Array of shape (n_projections, dimension) with unit vectors
    """
    # Sample from standard normal
    raw = random.normal(key, shape=(n_projections, dimension))
    
    # Normalize to unit length
    norms = jnp.linalg.norm(raw, axis=1, keepdims=True)
    
    # Handle edge case of zero vector (astronomically unlikely but be safe)
    norms = jnp.maximum(norms, 1e-10)
    
    return raw / norms


# (cut: wasserstein_1d_p1 / wasserstein_1d_p2, used only by the legacy exact path)


@dataclass
class SlicedWassersteinDistance:
    """
    Sliced Wasserstein distance between empirical distributions.
    
    Approximates the Wasserstein distance by averaging 1D Wasserstein
    distances over random projections.
    
    Parameters:
        n_projections: Number of random projection directions (L).
                      More projections = better approximation but slower.
                      Typical values: 50-500. Default 100 is usually sufficient.
        p: Order of Wasserstein distance (1 or 2). Default 2.
        seed: Random seed for reproducible projections.
    
    Example:
        >>> sw = SlicedWassersteinDistance(n_projections=100, p=2, seed=42)
        >>> X = jnp.array([[0, 0], [1, 0], [0, 1]])  # 3 samples, 2D
        >>> Y = jnp.array([[2, 2], [3, 2], [2, 3], [3, 3]])  # 4 samples, 2D
        >>> distance = sw(X, Y)
    """
    n_projections: int = 100
    p: Literal[1, 2] = 2
    seed: int = 42
    
    # Lazily initialized
    _projections: Optional[Float[Array, "L d"]] = field(default=None, init=False, repr=False)
    _dimension: Optional[int] = field(default=None, init=False, repr=False)
    
    def _ensure_projections(self, dimension: int):
        """Initialize projections if needed, or reinitialize if dimension changed."""
        if self._projections is None or self._dimension != dimension:
            key = random.PRNGKey(self.seed)
            self._projections = sample_unit_sphere(key, self.n_projections, dimension)
            self._dimension = dimension
    
    # (cut: __call__, _compute_sw, pairwise_distances, _compute_sw_from_sorted: the legacy exact path)

    # ------------------------------------------------------------------
    # Single-global-Q quantile representation (fast, JIT-friendly).
    #
    # Each bag is projected, sorted, and resampled to the SAME number of
    # quantile points Q. Every bag is then a (Q, L) tensor, so all pairwise
    # (or cross) SW distances are a single uniform-shape, vmapped op that XLA
    # compiles ONCE -- instead of recompiling per unique bag-size pair. Because
    # 1-D Wasserstein depends only on the quantile function, Q quantiles are a
    # faithful (and, as Q grows, exact) summary of each projected marginal.
    # ------------------------------------------------------------------
    def quantile_embeddings(
        self,
        collections: List[SampleCollection],
        n_quantiles: int,
    ) -> Float[Array, "N Q L"]:
        """Project, sort, and resample every bag to ``n_quantiles`` points."""
        dim = collections[0].samples.shape[1]
        self._ensure_projections(dim)
        embs = []
        for coll in collections:
            proj = jnp.asarray(coll.samples) @ self._projections.T  # (n, L)
            sorted_proj = jnp.sort(proj, axis=0)
            embs.append(_resample_sorted_projections(sorted_proj, n_quantiles))
        return jnp.stack(embs)  # (N, Q, L)

    def pairwise_distances_quantile(
        self,
        collections: List[SampleCollection],
        n_quantiles: int,
    ) -> Float[Array, "N N"]:
        """Fast N×N SW distance matrix via the global-Q quantile representation."""
        emb = self.quantile_embeddings(collections, n_quantiles)
        return _pairwise_distances_uniform_jit(emb, int(self.p))

    def cross_distances_quantile(
        self,
        new_collections: List[SampleCollection],
        train_collections: List[SampleCollection],
        n_quantiles: int,
    ) -> Float[Array, "Nnew Ntrain"]:
        """Fast (new × train) SW distance matrix via the global-Q representation."""
        a = self.quantile_embeddings(new_collections, n_quantiles)
        b = self.quantile_embeddings(train_collections, n_quantiles)
        return _cross_distances_uniform_jit(a, b, int(self.p))



# (cut: WassersteinKernel, whose build_similarity_matrix takes the legacy path unless n_quantiles is given)


# =============================================================================
# Utilities
# =============================================================================

def estimate_sigma_from_distances(
    distance_matrix: Float[Array, "N N"],
    percentile: float = 50.0
) -> float:
    """
    Estimate a reasonable sigma based on the distribution of distances.
    
    A common heuristic is to use the median distance, which ensures
    roughly half of pairwise similarities are above/below exp(-0.5) ≈ 0.6.
    
    Parameters:
        distance_matrix: Pairwise SW distances
        percentile: Which percentile of distances to use (default: median)
    
    Returns:
        Suggested sigma value
    """
    # Extract upper triangle (excluding diagonal)
    n = distance_matrix.shape[0]
    upper_tri_indices = jnp.triu_indices(n, k=1)
    upper_tri = distance_matrix[upper_tri_indices]
    return float(jnp.percentile(upper_tri, percentile))

# ---- driver ----
import numpy as np  # scaffolding

_rng = np.random.default_rng(0)  # scaffolding
def _bags(sizes, first_id):  # scaffolding: site/background bags of different sizes (real sites: 7-5000 cells)
    return [SampleCollection(samples=jnp.asarray(_rng.normal(size=(n, 3)), dtype=jnp.float32), label=i % 2, id=f"bag{first_id + i}") for i, n in enumerate(sizes)]  # scaffolding
train = _bags([5, 5, 7, 7, 9, 12], 0)  # scaffolding
test = _bags([6, 9, 11], 6)  # scaffolding
n_quantiles = 32  # scaffolding (wasserstein_heldout's default is 128)
# scaffolding below: the distance steps of klrfome/data/tabular.py wasserstein_heldout (the KLR fit and AUC cut)
sw = SlicedWassersteinDistance(n_projections=16, p=2, seed=42)  # scaffolding
d_tr = np.asarray(sw.pairwise_distances_quantile(train, n_quantiles))  # scaffolding: (N, N)
sigma = float(estimate_sigma_from_distances(jnp.asarray(d_tr), 50.0))  # scaffolding
k_tr = np.exp(-d_tr ** 2 / (2.0 * sigma ** 2))  # scaffolding
d_te = np.asarray(sw.cross_distances_quantile(test, train, n_quantiles))  # scaffolding: (Ntest, Ntrain)
k_te = np.exp(-d_te ** 2 / (2.0 * sigma ** 2))  # scaffolding
print("k_tr[0, :3] =", np.round(k_tr[0, :3], 3), "k_te.shape =", k_te.shape)  # scaffolding
_report({"jit(_pairwise_distances_uniform_jit)", "jit(_cross_distances_uniform_jit)"}, 2)  # scaffolding
