# source: https://github.com/google/vizier/commit/6cead27dbd3d8289c273ed44aba548a02ab63a15
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: The commit's fix: n_feature_dimensions becomes a traced pytree field and the padding mask is built with jnp.arange(...) > n, so studies with 3..6 real features padded to 10 share one compiled acquisition optimization.

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


# --- end harness ---
from typing import Optional  # scaffolding

import jax
from jax import numpy as jnp
import numpy as np
from flax import struct


@struct.dataclass
class VectorizedStrategyResults:
  features: jax.Array
  rewards: jax.Array
  aux: dict = struct.field(default_factory=dict)


@struct.dataclass
class RandomVectorizedStrategy:  # scaffolding: minimal strategy, padded width static as in eagle_strategy
  n_feature_dimensions_with_padding: int = struct.field(pytree_node=False)
  suggestion_batch_size: int = struct.field(pytree_node=False, default=25)

  def init_state(self, seed, prior_features=None, prior_rewards=None):
    del seed
    return jnp.zeros(())

  def suggest(self, state, seed):
    del state
    return jax.random.uniform(
        seed, shape=(self.suggestion_batch_size, self.n_feature_dimensions_with_padding))

  def update(self, state, batch_features, batch_rewards, seed):
    return state


@struct.dataclass
class VectorizedOptimizer:
  strategy: RandomVectorizedStrategy
  n_feature_dimensions: int
  n_feature_dimensions_with_padding: int = struct.field(pytree_node=False)
  suggestion_batch_size: int = struct.field(pytree_node=False, default=25)
  max_evaluations: int = struct.field(pytree_node=False, default=75_000)

  def __call__(
      self,
      score_fn,
      *,
      count: int = 1,
      prior_features: Optional[jax.Array] = None,
      seed: Optional[int] = None,
  ) -> VectorizedStrategyResults:
    seed = jax.random.PRNGKey(0) if seed is None else seed

    dimension_is_missing = (
        jnp.arange(self.n_feature_dimensions_with_padding)
        > self.n_feature_dimensions
    )

    # TODO: We should pass RNGKey to score_fn.
    prior_rewards = None
    if prior_features is not None:
      prior_rewards = score_fn(prior_features).reshape(-1)

    def _optimization_one_step(_, args):
      state, best_results, seed = args
      suggest_seed, update_seed, new_seed = jax.random.split(seed, num=3)
      new_features = self.strategy.suggest(state, suggest_seed)
      # Ensure masking out padded dimensions in new features.
      new_features = jnp.where(
          dimension_is_missing, jnp.zeros_like(new_features), new_features
      )
      # We assume `score_fn` is aware of padded dimensions.
      new_rewards = score_fn(new_features)
      new_state = self.strategy.update(
          state, new_features, new_rewards, update_seed
      )
      new_best_results = self._update_best_results(
          best_results, count, new_features, new_rewards
      )
      return new_state, new_best_results, new_seed

    init_seed, loop_seed = jax.random.split(seed)
    init_best_results = VectorizedStrategyResults(
        rewards=-jnp.inf * jnp.ones([count]),
        features=jnp.zeros([count, self.n_feature_dimensions_with_padding]),
    )
    init_args = (
        self.strategy.init_state(
            init_seed,
            prior_features=prior_features,
            prior_rewards=prior_rewards,
        ),
        init_best_results,
        loop_seed,
    )
    _, best_results, _ = jax.lax.fori_loop(
        0,
        jnp.int32(jnp.ceil(self.max_evaluations / self.suggestion_batch_size)),
        _optimization_one_step,
        init_args,
    )
    return best_results

  def _update_best_results(self, best_results, count, batch_features, batch_rewards):
    all_rewards = jnp.concatenate([batch_rewards, best_results.rewards], axis=0)
    all_features = jnp.concatenate(
        [batch_features, best_results.features], axis=0
    )
    top_indices = jnp.argpartition(-all_rewards, count - 1)[:count]
    return VectorizedStrategyResults(
        rewards=all_rewards[top_indices],
        features=all_features[top_indices],
    )


def score(xs):  # scaffolding: one acquisition score shared by all studies
  return -jnp.sum((xs - 0.5) ** 2, axis=-1)


def optimize_acquisition(count, optimizer, prior_features, seed):
  """Optimize the acquisition function."""
  return optimizer(
      score_fn=score, count=count, prior_features=prior_features, seed=seed
  )


optimize_acquisition_jit = jax.jit(optimize_acquisition, static_argnames='count')  # scaffolding


PADDED = 10  # scaffolding: PaddingType.MULTIPLES_OF_10
rng = np.random.RandomState(0)
studies = [3, 4, 5, 6]  # scaffolding: four studies, one more parameter each time
for n_dims in studies:
  acquisition_optimizer = VectorizedOptimizer(
      strategy=RandomVectorizedStrategy(PADDED),
      n_feature_dimensions=n_dims,
      n_feature_dimensions_with_padding=PADDED,
      max_evaluations=500,
  )
  seed_features = jnp.asarray(
      np.pad(rng.rand(5, n_dims), ((0, 0), (0, PADDED - n_dims))), jnp.float32)
  acq_rng = jax.random.PRNGKey(n_dims)
  best_candidates = optimize_acquisition_jit(
      1, acquisition_optimizer, seed_features, acq_rng)
_report({"jit(optimize_acquisition)"}, len(studies))
