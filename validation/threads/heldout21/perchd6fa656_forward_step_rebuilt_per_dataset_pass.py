# source: https://github.com/google-research/perch/commit/d6fa6562c50b42c45947ec34e36a4cef1d44565c
# expect: jit-in-loop-or-body at line 179
# runtime: COMPILES 2 CALLS 8
# why: After the commit forward_dataset builds the pmapped step once per call instead of once per batch, but it still builds it anew on every call, so each pass over the dataset compiles the forward pass again.
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

import enum
from typing import Callable, Optional, Union

import flax
from flax import jax_utils as flax_utils
from flax import linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import tqdm
import functools  # scaffolding
tqdm.tqdm = functools.partial(tqdm.tqdm, disable=True)  # scaffolding: no progress bars
from absl import logging  # scaffolding: absl is installed with jax tooling

ForwardStepType = Callable  # scaffolding


class Modality(enum.Enum):  # scaffolding: adapt.Modality
  AUDIO = "audio"
  IMAGE = "image"


@flax.struct.dataclass
class ClassifierOutput:  # scaffolding: chirp.models.output.ClassifierOutput
  embedding: jnp.ndarray
  label: jnp.ndarray


class TinyClassifier(nn.Module):  # scaffolding: stands for the SFDA model
  @nn.compact
  def __call__(self, x, train=False, use_running_average=True):
    x = nn.Dense(8)(x)
    x = nn.BatchNorm(use_running_average=use_running_average)(x)
    return ClassifierOutput(embedding=x, label=nn.Dense(5)(x))


class adapt:  # scaffolding: the names method_utils takes from adapt.py
  Modality = Modality
  AdaptationState = object
  keep_jax_types = staticmethod(lambda batch: {k: v for k, v in batch.items() if k != "tfds_id"})

  @staticmethod
  def batch_forward(
      model: nn.Module,
      modality: Modality,
      use_batch_statistics: bool,
      train: bool = False,
  ) -> ForwardStepType:
    """Collects the model's output on the current batch of data.

    Args:
      model: The model.
      modality: The modality used.
      use_batch_statistics: Whether to use BatchNorm's running statistics, or the
        batch's statistics.
      train: Whether to use the model in training mode. Default to False, as this
        function is nominally used to compute pseudo-labels (e.g. Teacher step of
        Notela), which usually removes any source of noise (including dropout).

    Returns:
      Batch forward step callable.

    Raises:
      ValueError: In case train is set to True, but no random key is specified.
    """

    @jax.pmap
    def forward(batch, model_state, params, rngs):
      if use_batch_statistics:
        outputs, _ = model.apply(
            {"params": params, **model_state},
            batch[modality.value],
            train=train,
            mutable=list(model_state.keys()),
            use_running_average=False,
            rngs=rngs,
        )
      else:
        outputs = model.apply(
            {"params": params, **model_state},
            batch[modality.value],
            use_running_average=True,
            train=train,
            rngs=rngs,
        )
      return outputs

    return forward


class model_utils:  # scaffolding
  ModelBundle = object


class tf:  # scaffolding
  class data:
    Dataset = object


output = type("output", (), {"ClassifierOutput": ClassifierOutput})  # scaffolding
ForwardStepType = Callable  # scaffolding


def forward_dataset(
    dataset: tf.data.Dataset,
    adaptation_state: adapt.AdaptationState,
    model_bundle: model_utils.ModelBundle,
    modality: adapt.Modality,
    multi_label: bool,
    use_batch_statistics: bool = False,
    only_keep_unmasked_classes: bool = False,
    train: bool = False,
    key: Optional[jax.Array] = None
) -> dict[str, Union[jnp.ndarray, np.ndarray]]:
  """Fowards a dataset through a given model.

  Args:
    dataset: The dataset to extract from.
    adaptation_state: The current adaptation state, including the model's state
      and parameters used for extraction.
    model_bundle: The current ModelBundle.
    modality: The current data modality.
    multi_label: Whether this is a multi-label problem. This affects how model's
      probabilities are packaged.
    use_batch_statistics: Whether to use batch's statistics for BatchNorm layers
      during feature extraction.
    only_keep_unmasked_classes: In case 'label_mask' is provided as a key in
      batches of data, this option allows to only store the model's probabilties
      for classes that are not masked. This can result in large memory savings,
      e.g. for the bio-acoustic model where <100 classes are present versus the
      ~11k total species.
    train: Whether to use dropout or not during the forward pass.
    key: The random key to use if train is set to True.

  Returns:
    A dictionnary with the following keys:
      -embeddings: The extracted embeddings of shape [dataset_size,
       embedding_dimension].
      -proba: The output classwise probabities of shape [dataset_size,
       num_classes].
      -ids: The ids of the examples extracted, consistent with  embeddings and
       proba, of shape [N]. ids[i] corresponds to embeddings[i] and proba[i].

  Raises:
    ValueError: In case the ids do not uniquely identify each sample, or if
      the samples don't have the same label_mask.
  """
  logging.info("Starting feature extraction...")
  all_ouputs = []
  all_ids = []  # used to identify all samples
  model_state = flax_utils.replicate(adaptation_state.model_state)
  params = flax_utils.replicate(adaptation_state.model_params)
  model = model_bundle.model
  forward_step = adapt.batch_forward(
      model, modality, use_batch_statistics, train
  )

  # Forward the whole dataset. Store embeddings, samples' ids, labels, and
  # model's probabilities.
  for index, batch in tqdm.tqdm(
      enumerate(dataset.as_numpy_iterator()), total=len(dataset)):
    batch = jax.tree.map(np.asarray, batch)
    if key is not None:
      batch_key, key = jax.random.split(key)
      batch_key = jax.random.split(batch_key, num=jax.local_device_count())
      batch_key = {"dropout": batch_key}
    else:
      batch_key = None
    if "label_mask" in batch and only_keep_unmasked_classes and index == 0:
      # We will use the first sample's label_mask as a reference, and ensure
      # all label_masks are the same.
      reference_mask = flax_utils.unreplicate(batch["label_mask"])[0]
    model_outputs = forward_step(
        adapt.keep_jax_types(batch), model_state, params, batch_key
    )
    if "label_mask" in batch and only_keep_unmasked_classes:
      # We make sure that the label_mask is the same for all samples in the
      # dataset.
      if not (jnp.tile(reference_mask, (batch["label_mask"].shape[0], 1))
              == batch["label_mask"]).all():
        raise ValueError("All samples should have the same label_mask for the"
                         "'only_keep_unmasked_classes' option to work"
                         "adequately.")
      # We only keep unmasked classes.
      model_outputs = model_outputs.replace(
          label=model_outputs.label[..., reference_mask.astype(bool)])
    all_ouputs.append(flax_utils.unreplicate(model_outputs))
    all_ids += list(batch["tfds_id"].reshape(-1))

  # Concatenate every list to obtain a single array for each field. Store these
  # arrays in the result dictionary.
  logits2proba = nn.sigmoid if multi_label else nn.softmax
  result = {}
  result["embedding"] = jnp.concatenate([x.embedding for x in all_ouputs],
                                        axis=0)  # [dataset_size, n_dimensions]
  result["proba"] = jnp.concatenate([logits2proba(x.label) for x in all_ouputs],
                                    axis=0)  # [dataset_size, num_classes]
  ids = np.array(all_ids)  # [dataset_size,]

  # Make some verifications.
  if np.unique(ids).shape[0] != ids.shape[0]:
    raise ValueError("Ids should uniquely define each sample.")
  result["id"] = ids
  return result


class _Dataset:  # scaffolding: a tf.data.Dataset of 4 batches, one device
  def __init__(self, batches):
    self.batches = batches

  def __len__(self):
    return len(self.batches)

  def as_numpy_iterator(self):
    return iter(self.batches)


class _NS:  # scaffolding
  def __init__(self, **kw):
    self.__dict__.update(kw)


model = TinyClassifier()  # scaffolding
variables = model.init(jax.random.key(0), jnp.ones((2, 4)))  # scaffolding
state = _NS(model_state={"batch_stats": variables["batch_stats"]}, model_params=variables["params"])  # scaffolding
bundle = _NS(model=model)  # scaffolding
rng = np.random.default_rng(0)  # scaffolding
dataset = _Dataset([{"audio": rng.normal(size=(1, 2, 4)).astype(np.float32), "tfds_id": np.array([[2 * i, 2 * i + 1]])} for i in range(4)])  # scaffolding
calls = 0  # scaffolding
for epoch in range(2):  # scaffolding: pseudo-labels are recomputed each epoch
  result = forward_dataset(dataset, state, bundle, Modality.AUDIO, multi_label=False)
  calls += len(dataset)
_report({"jit(_fun)"}, calls)  # scaffolding (pmap compiles as jit(_fun) on 0.10.2)
