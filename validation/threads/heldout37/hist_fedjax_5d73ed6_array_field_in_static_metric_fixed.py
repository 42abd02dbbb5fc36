# source: https://github.com/google/fedjax/commit/5d73ed6ce263bacb042c9d2a929e0a9ae3cf61e3
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: The commit's fix: logits_mask is stored as a tuple of floats and turned into an array inside evaluate_example, so the metric and the model stay hashable and the static-model evaluation step compiles once for four batches.

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
import dataclasses
import functools
from typing import Any, Callable, Dict, Iterable, Mapping, Optional, Tuple

import jax
import jax.numpy as jnp
import numpy as np

EXAMPLE_MASK_KEY = '__mask__'  # scaffolding


class immutabledict(dict):  # scaffolding: stand-in for the immutabledict package
  def __hash__(self):
    return hash(tuple(sorted(self.items(), key=lambda kv: kv[0])))


@jax.tree_util.register_pytree_node_class
@dataclasses.dataclass
class MeanStat:  # scaffolding: minimal stand-in for fedjax MeanStat
  accum: jnp.ndarray
  weight: jnp.ndarray

  @classmethod
  def new(cls, accum, weight):
    return cls(jnp.asarray(accum, jnp.float32), jnp.asarray(weight, jnp.float32))

  def merge(self, other):
    return MeanStat.new(self.accum + other.accum, self.weight + other.weight)

  def reduce(self):
    return MeanStat.new(jnp.sum(self.accum, axis=0), jnp.sum(self.weight, axis=0))

  def result(self):
    return jnp.where(self.weight == 0, 0, self.accum / self.weight)

  def tree_flatten(self):
    return (self.accum, self.weight), None

  @classmethod
  def tree_unflatten(cls, aux, children):
    return cls(*children)


def _target_weight(target: jnp.ndarray,
                   masked_target_values: Tuple[int, ...]) -> jnp.ndarray:
  target_weight = jnp.ones_like(target, dtype=jnp.float32)
  for mv in masked_target_values:
    target_weight *= (target != mv)
  return target_weight


@dataclasses.dataclass(frozen=True)
class SequenceTokenAccuracy:
  target_key: str = 'y'
  pred_key: Optional[str] = None
  masked_target_values: Tuple[int, ...] = (0,)
  # logits_mask cannot be a jnp.ndarray nor np.ndarray because they are not
  # hashable and `Metric`s must be hashable for `evaluate_model`.
  logits_mask: Optional[Tuple[float, ...]] = None

  def zero(self) -> MeanStat:
    return MeanStat.new(0., 0.)

  def evaluate_example(self, example, prediction) -> MeanStat:
    target = example[self.target_key]
    pred = prediction if self.pred_key is None else prediction[self.pred_key]
    if self.logits_mask is not None:
      logits_mask = jnp.array(self.logits_mask)
      pred += logits_mask
    target_weight = _target_weight(target, self.masked_target_values)
    correct = (target == jnp.argmax(pred, axis=-1)).astype(jnp.float32)
    return MeanStat.new(
        jnp.sum(correct * target_weight), jnp.sum(target_weight))


def evaluate_batch(metric, batch_example, batch_prediction, batch_mask=None):
  """Evaluates a batch using a metric."""
  batch_stat = jax.vmap(metric.evaluate_example)(batch_example,
                                                 batch_prediction)
  if batch_mask is not None:
    batch_stat = jax.tree_util.tree_map(
        lambda s, z: jnp.where(batch_mask, s, z), batch_stat, metric.zero())
  return batch_stat.reduce()


@dataclasses.dataclass(frozen=True)
class Model:  # scaffolding: stand-in for fedjax Model (frozen dataclass)
  apply_for_eval: Callable
  eval_metrics: Mapping[str, Any]


@functools.partial(jax.jit, static_argnums=0)
def _evaluate_model_step(model, params, batch, stat):
  try:
    mask = batch[EXAMPLE_MASK_KEY].astype(jnp.bool_)
  except KeyError:
    mask = jnp.ones([len(next(iter(batch.values())))], dtype=jnp.bool_)
  pred = model.apply_for_eval(params, batch)
  new_stat = {
      k: evaluate_batch(metric, batch, pred, mask)
      for k, metric in model.eval_metrics.items()
  }
  return jax.tree_util.tree_map(
      lambda a, b: a.merge(b),
      stat,
      new_stat,
      is_leaf=lambda v: isinstance(v, MeanStat))


def evaluate_model(model, params, batches):
  stat = {k: metric.zero() for k, metric in model.eval_metrics.items()}
  for batch in batches:
    stat = _evaluate_model_step(model, params, batch, stat)
  return jax.tree_util.tree_map(
      lambda x: x.result(), stat, is_leaf=lambda v: isinstance(v, MeanStat))


def apply_for_eval(params, batch):  # scaffolding: a tiny next-token model
  return params['embed'][batch['x']] @ params['out']


VOCAB = 10  # scaffolding: 8 real tokens + 2 out-of-vocabulary ids
oov_mask = np.zeros(VOCAB, np.float32)
oov_mask[-2:] = -1e9
model = Model(apply_for_eval, immutabledict({
    'token_accuracy': SequenceTokenAccuracy(logits_mask=tuple(oov_mask.tolist())),
}))
rng = np.random.RandomState(0)
params = {'embed': jnp.asarray(rng.randn(VOCAB, 4), jnp.float32),
          'out': jnp.asarray(rng.randn(4, VOCAB), jnp.float32)}
batches = [{'x': rng.randint(0, VOCAB, (8, 5)), 'y': rng.randint(0, VOCAB, (8, 5))} for _ in range(4)]
try:  # scaffolding
  print(evaluate_model(model, params, batches))
  _report({"jit(_evaluate_model_step)"}, len(batches))
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")
