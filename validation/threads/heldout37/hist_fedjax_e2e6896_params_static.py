# source: https://github.com/google/fedjax/commit/e2e689670dd3db9d2375a41360e62d444850fb66
# expect: unhashable-static at line 128
# runtime: ERROR ValueError
# why: _evaluate_model_step marks both model and params static (static_argnums=(0, 1)); params is a stax pytree (list of tuples of arrays), which is unhashable, so the first evaluate_model call raises instead of compiling.

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
import dataclasses  # scaffolding: stand-in for fedjax.core.dataclasses (frozen dataclass)
import functools
from typing import Any, Callable, Dict, Iterable, Mapping, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
from jax.example_libraries import stax  # was jax.experimental.stax in 2021

Params = Any  # scaffolding
BatchExample = Mapping[str, jnp.ndarray]  # scaffolding
EXAMPLE_MASK_KEY = '__mask__'  # scaffolding: client_datasets.EXAMPLE_MASK_KEY


class immutabledict(dict):  # scaffolding: stand-in for the immutabledict package (hashable mapping)
  def __hash__(self):
    return hash(tuple(sorted(self.items(), key=lambda kv: kv[0])))


class Stat(NamedTuple):  # scaffolding: minimal stand-in for fedjax.experimental.metrics.Stat
  total: jnp.ndarray
  count: jnp.ndarray

  def merge(self, other):
    return Stat(self.total + other.total, self.count + other.count)

  def result(self):
    return self.total / self.count


@dataclasses.dataclass(frozen=True)
class Accuracy:  # scaffolding: minimal stand-in for metrics.Accuracy
  target_key: str = 'y'

  def zero(self):
    return Stat(jnp.zeros((), jnp.float32), jnp.zeros((), jnp.float32))


def evaluate_batch(metric, batch, pred, mask):  # scaffolding: metrics.evaluate_batch
  correct = (jnp.argmax(pred, axis=-1) == batch[metric.target_key]) & mask
  return Stat(jnp.sum(correct).astype(jnp.float32), jnp.sum(mask).astype(jnp.float32))


@dataclasses.dataclass(frozen=True)
class Model:
  init: Callable
  apply_for_train: Callable
  apply_for_eval: Callable
  train_loss: Callable
  eval_metrics: Mapping[str, Any]


def create_model_from_stax(stax_init, stax_apply, sample_shape, train_loss,
                           eval_metrics=None, train_kwargs=None,
                           eval_kwargs=None, input_key='x') -> Model:
  eval_metrics = eval_metrics or {}
  train_kwargs = train_kwargs or {}
  eval_kwargs = eval_kwargs or {}

  @jax.jit
  def init(rng):
    _, params = stax_init(rng, sample_shape)
    return params

  @jax.jit
  def apply_for_train(params, batch, rng=None):
    return stax_apply(params, batch[input_key], rng=rng, **train_kwargs)

  @jax.jit
  def apply_for_eval(params, batch):
    return stax_apply(params, batch[input_key], **eval_kwargs)

  return Model(init, apply_for_train, apply_for_eval, train_loss,
               immutabledict(eval_metrics))


@functools.partial(jax.jit, static_argnums=(0, 1))
def _evaluate_model_step(model: Model, params: Params, batch: BatchExample,
                         stat: Stat) -> Dict[str, Stat]:
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
      is_leaf=lambda v: isinstance(v, Stat))


def evaluate_model(model: Model, params: Params,
                   batches: Iterable[BatchExample]) -> Dict[str, jnp.ndarray]:
  stat = {k: metric.zero() for k, metric in model.eval_metrics.items()}
  for batch in batches:
    stat = _evaluate_model_step(model, params, batch, stat)
  return jax.tree_util.tree_map(
      lambda x: x.result(), stat, is_leaf=lambda v: isinstance(v, Stat))


# scaffolding: a stax model and four equally sized (padded) batches
stax_init, stax_apply = stax.serial(stax.Dense(10))
model = create_model_from_stax(stax_init=stax_init, stax_apply=stax_apply,
                               sample_shape=(-1, 2), train_loss=None,
                               eval_metrics={'accuracy': Accuracy()})
params = model.init(jax.random.PRNGKey(0))
rng = np.random.RandomState(0)
batches = [{'x': rng.randn(8, 2).astype(np.float32), 'y': rng.randint(0, 10, 8)} for _ in range(4)]
try:  # scaffolding
    print(evaluate_model(model, params, batches))
    _report({"jit(_evaluate_model_step)"}, len(batches))
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
