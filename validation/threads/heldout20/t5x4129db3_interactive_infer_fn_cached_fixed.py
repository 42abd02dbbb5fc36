# source: https://github.com/google-research/t5x/commit/4129db381d22fb133096be5bbedec275047c0292
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The commit caches the infer function per inference_kwargs in self._cached_infer_fns, so the jitted step is built and compiled once.

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


import enum  # scaffolding
import functools
import inspect
import types  # scaffolding

import jax
import jax.numpy as jnp
import numpy as np


class _Partitioner:  # scaffolding: stand-in for t5x.partitioning.PjitPartitioner on one device
  data_partition_spec = None

  def partition(self, fn, in_axis_resources, out_axis_resources):
    return jax.jit(fn)


# t5x/utils.py get_infer_fn, cut to the partitioned step and a one-batch infer_fn (the tf.data handling is left out)
def get_infer_fn(infer_step, batch_size, train_state_axes, partitioner):
  """Get prediction function for the SeqIO evaluator."""

  def infer_step_with_indices(params, batch, rng, indices):
    if 'rng' in inspect.signature(infer_step).parameters:
      res = infer_step(params, batch, rng)
    else:
      res = infer_step(params, batch)
    return indices, res

  partitioned_infer_step = partitioner.partition(
      infer_step_with_indices,
      in_axis_resources=(train_state_axes.params,
                         partitioner.data_partition_spec, None,
                         partitioner.data_partition_spec),
      out_axis_resources=(None, None))

  def infer_fn(batch, train_state, rng=None):  # scaffolding: one batch instead of a tf.data.Dataset
    indices = jnp.arange(batch.shape[0])  # scaffolding
    return partitioned_infer_step(train_state.params, batch, rng, indices)  # scaffolding

  return infer_fn


class InferenceType(enum.Enum):
  PREDICT_WITH_AUX = 1
  SCORE = 2


class _Model:  # scaffolding: a linear scorer instead of the T5 model
  def score_batch(self, params, batch, return_intermediates=False):
    return batch @ params['w']

  def predict_batch_with_aux(self, params, batch, rng=None, decoder_params=None):
    return jnp.argmax(batch @ params['w'], -1), {}


# t5x/interactive_model.py after the commit
class InteractiveModel:

  def __init__(self, batch_size=4):  # scaffolding: the real constructor restores a checkpoint
    self._batch_size = batch_size
    self._model = _Model()
    self._partitioner = _Partitioner()
    self._train_state = types.SimpleNamespace(params={'w': jnp.ones((8, 3))})
    self._train_state_initializer = types.SimpleNamespace(train_state_axes=types.SimpleNamespace(params=None))
    self._cached_infer_fns = {}

  def infer_with_preprocessors(self, mode, examples, preprocessors, **inference_kwargs):
    """Infer function."""
    # --------------------------------------------------------------------------
    # Parse Mode
    # --------------------------------------------------------------------------
    if mode == InferenceType.PREDICT_WITH_AUX:
      infer_step = self._model.predict_batch_with_aux
    elif mode == InferenceType.SCORE:
      infer_step = self._model.score_batch
    else:
      raise ValueError("Mode must be `predict_with_aux`, or `score`,"
                       f" but instead was {mode}.")
    infer_fn_key = tuple(
        sorted(inference_kwargs.items())  # seqio.utils.flatten_dict(inference_kwargs) in t5x
    )
    if infer_fn_key not in self._cached_infer_fns:
      self._cached_infer_fns[infer_fn_key] = get_infer_fn(
          infer_step=functools.partial(infer_step, **inference_kwargs),
          batch_size=self._batch_size,
          train_state_axes=self._train_state_initializer.train_state_axes,
          partitioner=self._partitioner,
      )
    infer_fn = functools.partial(
        self._cached_infer_fns[infer_fn_key],
        train_state=self._train_state,
    )
    batch = np.asarray(examples, np.float32)  # scaffolding: the tf.data pipeline
    return infer_fn(batch)  # scaffolding


model = InteractiveModel()  # scaffolding
for i in range(3):  # scaffolding: three interactive scoring requests
  model.infer_with_preprocessors(InferenceType.SCORE, np.full((4, 8), i), preprocessors=[])  # scaffolding
_report({"jit(infer_step_with_indices)"}, 3)  # scaffolding
