# source: https://github.com/google-deepmind/rlax/commit/a194cae38a99a3af87acc851f91ececb863d759a
# expect: shape-churn at line 193
# runtime: COMPILES 5 CALLS 5
# why: each call concatenates the new embeddings onto the episodic memory and passes the grown memory to jit_knn_query, so the jitted knn_query sees a new data shape and compiles on every step (5 compiles for 5 calls).
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



# rlax (DeepMind RL research library; the Never Give Up / Agent57 episodic-memory intrinsic reward): rlax/_src/episodic_memory.py
# (KNNQueryResult, _sqeuclidian, _cdist, knn_query) and rlax/_src/exploration.py (IntrinsicRewardState,
# episodic_memory_intrinsic_rewards) at the parent of a194cae, flattened.
import functools
from types import SimpleNamespace  # scaffolding
from typing import Callable, Optional

import chex
import jax
import jax.numpy as jnp

Array = chex.Array
Scalar = chex.Scalar


@chex.dataclass
class KNNQueryResult():
  neighbors: jnp.ndarray
  neighbor_indices: jnp.ndarray
  neighbor_neg_distances: jnp.ndarray


def _sqeuclidian(x: Array, y: Array) -> Scalar:
  return jnp.sum(jnp.square(x - y))


def _cdist(
    a: Array,
    b: Array,
    metric: Callable[[Array, Array], Scalar]
) -> Array:
  """Returns the distance between each pair of the two collections of inputs."""
  return jax.vmap(jax.vmap(metric, (None, 0)), (0, None))(a, b)


def knn_query(
    data: Array,
    query_points: Array,
    num_neighbors: int,
    metric: Callable[[Array, Array], Scalar] = _sqeuclidian
) -> KNNQueryResult:
  """Finds closest neighbors in data to the query points and their neg distances.

  NOTE: For this function to be jittable, static_argnums=[2,] must be passed, as
  the internal jax.lax.top_k(neg_distances, num_neighbors) computation cannot be
  jitted with a dynamic num_neighbors that is passed as an argument.

  Args:
    data: array of existing data points (elements in database x feature size)
    query_points: array of points to find neighbors of
        (num query points x feature size).
    num_neighbors: number of neighbors to find.
    metric: Metric to use in calculating distance between two points.

  Returns:
    KNNQueryResult with (all sorted by neg distance):
      - neighbors (num query points x num neighbors x feature size)
      - neighbor_indices (num query points x num neighbors)
      - neighbor_neg_distances (num query points x num neighbors)
   * if num_neighbors is greater than number of elements in the database,
     just return KNNQueryResult with the number of elements in the database.
  """
  chex.assert_rank([data, query_points], 2)
  assert data.shape[-1] == query_points.shape[-1]
  distance_fn = jax.jit(functools.partial(_cdist, metric=metric))
  neg_distances = -distance_fn(query_points, data)
  # TODO(b/163111988): Use more efficient top_k functions if it's a bottleneck.
  neg_distances, indices = jax.lax.top_k(
      neg_distances, k=min(num_neighbors, data.shape[0]))
  # Batch index into data using indices shaped [num queries, num neighbors]
  neighbors = jax.vmap(lambda d, i: d[i], (None, 0))(jnp.array(data), indices)
  return KNNQueryResult(neighbors=neighbors, neighbor_indices=indices,
                        neighbor_neg_distances=neg_distances)


episodic_memory = SimpleNamespace(knn_query=knn_query)  # scaffolding: the episodic_memory module

@chex.dataclass
class IntrinsicRewardState():
  memory: jnp.ndarray = None
  distance_sum: Scalar = 0
  distance_count: Scalar = 0


def episodic_memory_intrinsic_rewards(
    embeddings: Array,
    num_neighbors: int,
    reward_scale: float,
    intrinsic_reward_state: Optional[IntrinsicRewardState] = None,
    constant: float = 1e-3,
    epsilon: float = 1e-4,
    cluster_distance: float = 8e-3,
    max_similarity: float = 8.):
  r"""Compute intrinsic rewards for exploration via episodic memory.

  This method is adopted from the intrinsic reward computation used in "Never
  Give Up: Learning Directed Exploration Strategies" by Puigdomènech Badia et
  al., (2020) (https://arxiv.org/abs/2003.13350) and "Agent57: Outperforming the
  Atari Human Benchmark" by Puigdomènech Badia et al., (2020)
  (https://arxiv.org/abs/2002.06038).

  From an embedding, we compute the intra-episode intrinsic reward with respect
  to a pre-existing set of embeddings.

  NOTE: For this function to be jittable, static_argnums=[1,] must be passed, as
  the internal jax.lax.top_k(neg_distances, num_neighbors) computation in
  knn_query cannot be jitted with a dynamic num_neighbors that is passed as an
  argument.

  Args:
    embeddings: Array, shaped [M, D] for number of new state embeddings M and
      feature dim D.
    num_neighbors: int for K neighbors used in kNN query
    reward_scale: The β term used in the Agent57 paper to scale the reward.
    intrinsic_reward_state: An IntrinsicRewardState namedtuple, containing:
        - memory: Array, Optional; an array of previous memories within an
              episode (if they exist). NOTE: If the memory is not provided, a
                0-memory array of size (1, D) is used to compute the negative
                distances from the kNN query.
        - distance_sum: Scalar, Optional; running sum of total negative squared
          distances computed by consecutive kNN queries used to compute mean
          distance.
        - distance_count: Scalar, Optional; running count of total negative
          squared distances computed by consecutive kNN queries used to compute
          mean distance.
    constant: float; small constant used for numerical stability used during
      normalizing distances.
    epsilon: float; small constant used for numerical stability when computing
      kernel output.
    cluster_distance: float; the ξ term used in the Agent57 paper to bound the
      distance rate used in the kernel computation.
    max_similarity: float; max limit of similarity; used to zero rewards when
      similarity between memories is too high to be considered 'useful' for an
      agent.

  Returns:
    reward: Array, shaped [M, 1]; Intrinsic reward for each embedding computed
        by using similarity measure to memories.
    intrinsic_reward_state: IntrinsicRewardState namedtuple containing:
        - memory: Array; an array of previous memories
              concatenated with new embeddings.
        - distance_sum: Scalar; running sum of total negative squared
              distances computed by consecutive kNN queries used to compute
              mean distance.
        - distance_count: Scalar; running count of total negative
              squared distances computed by consecutive kNN queries used to
              compute mean distance.
  """

  # Initialize IntrinsicRewardState if not provided to default values.
  intrinsic_reward_state = intrinsic_reward_state or IntrinsicRewardState()

  # Compute the KNN from the embeddings using the square distances from
  # the KNN d²(xₖ, x). Results are not guaranteed to be ordered.
  jit_knn_query = jax.jit(
      episodic_memory.knn_query, static_argnums=[
          2,
      ])
  if intrinsic_reward_state.memory is None:
    # Forward empty memory of size 1 if not provided.
    knn_query_result = jit_knn_query(
        jnp.zeros(shape=(1, embeddings.shape[-1])), embeddings, num_neighbors)
    new_memory = embeddings

  else:
    knn_query_result = jit_knn_query(intrinsic_reward_state.memory, embeddings,
                                     num_neighbors)
    new_memory = jnp.concatenate((intrinsic_reward_state.memory, embeddings), 0)

  nn_distances_sq = knn_query_result.neighbor_neg_distances

  # Unpack running distance statistics, and update the running mean dₘ²
  distance_sum = intrinsic_reward_state.distance_sum
  distance_sum += jnp.sum(nn_distances_sq)
  distance_counts = intrinsic_reward_state.distance_count
  distance_counts += nn_distances_sq.size

  # We compute the sum of a kernel similarity with the KNN and set to zero
  # the reward when this similarity exceeds a given value (max_similarity)
  # Compute rate = d(xₖ, x)² / dₘ²
  mean_distance = distance_sum / distance_counts
  distance_rate = nn_distances_sq / (mean_distance + constant)

  # The distance rate becomes 0 if already small: r <- max(r-ξ, 0).
  distance_rate = jnp.maximum(distance_rate - cluster_distance,
                              jnp.zeros_like(distance_rate))

  # Compute the Kernel value K(xₖ, x) = ε/(rate + ε).
  kernel_output = epsilon / (distance_rate + epsilon)

  # Compute the similarity for the embedding x:
  # s = √(Σ_{xₖ ∈ Nₖ} K(xₖ, x)) + c
  similarity = (jnp.sqrt(jnp.sum(kernel_output, axis=-1)) + constant)

  # Compute the intrinsic reward:
  # r = 1 / s.
  reward_new = jnp.ones_like(embeddings[..., 0]) / similarity

  # Zero the reward if similarity is greater than max_similarity
  # r <- 0 if s > sₘₐₓ otherwise r.
  max_similarity_reached = similarity > max_similarity
  reward = jnp.where(max_similarity_reached, 0, reward_new)

  # r <- β * r
  reward *= reward_scale

  return reward, IntrinsicRewardState(
      memory=new_memory,
      distance_sum=distance_sum,
      distance_count=distance_counts)  # scaffolding: was distance_counts=, a field-name typo (TypeError on every call) that the same commit fixes


rng = jax.random.PRNGKey(0)  # scaffolding
state = None  # scaffolding
calls = 0  # scaffolding
for step in range(5):  # scaffolding: one episode, 4 new embeddings (one per actor) per step
  rng, sub = jax.random.split(rng)  # scaffolding
  embeddings = jax.random.normal(sub, (4, 8))  # scaffolding: embedding-network outputs stand-in
  reward, state = episodic_memory_intrinsic_rewards(embeddings, 3, 1.0, state)  # scaffolding
  calls += 1  # scaffolding
_report({"jit(knn_query)"}, calls)  # scaffolding
