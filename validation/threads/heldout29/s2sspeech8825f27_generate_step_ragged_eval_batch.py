# source: https://github.com/sanchit-gandhi/seq2seq-speech/commit/8825f27813d9edfd400622e3194adb8e7be8b0ed
# expect: shape-churn at line 118; stale-closure at line 95
# runtime: COMPILES 2 CALLS 3
# why: np.array_split makes eval batches of 4, 3, 3 and pad_shard_unpad pads only to the device count, so the pmapped generate_step compiles again for the smaller batches; generate_step also stores its traced params in the global model.
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


import math
from types import SimpleNamespace  # scaffolding

import numpy as np
from tqdm import tqdm

import jax
import jax.numpy as jnp
from flax.jax_utils import pad_shard_unpad, unreplicate


def generate_batch_splits(samples_idx: np.ndarray, batch_size: int, drop_last_batch=True) -> np.ndarray:
    """Generate batches of data for a specified batch size from sample indices. If the dataset size is not divisible by
    the batch size and `drop_last` is `True`, the last incomplete batch is dropped. Else, it is returned."""
    num_samples = len(samples_idx)
    if drop_last_batch:
        samples_to_remove = num_samples % batch_size
        if samples_to_remove != 0:
            samples_idx = samples_idx[:-samples_to_remove]
        sections_split = num_samples // batch_size
        samples_idx = samples_idx.reshape((sections_split, batch_size))
    else:
        sections_split = math.ceil(num_samples / batch_size)
        samples_idx = np.array_split(samples_idx, sections_split)
    return samples_idx


# ---- scaffolding: stand-ins for FlaxSpeechEncoderDecoderModel, the training arguments, the eval split and the data collator ----
class _SpeechModel:  # scaffolding: generate() reads self.params, as FlaxPreTrainedModel.generate does when params is not passed
    def __init__(self, params):  # scaffolding
        self.params = params  # scaffolding

    def generate(self, inputs, max_length, num_beams, length_penalty):  # scaffolding: greedy "decoding" of a linear encoder
        logits = inputs[:, :, None] * self.params["w"][None, None, :]  # scaffolding: (batch, frames, vocab)
        tokens = jnp.argmax(logits, axis=-1)[:, :max_length]  # scaffolding
        return SimpleNamespace(sequences=tokens)  # scaffolding


model = _SpeechModel({"w": jnp.linspace(-1.0, 1.0, 8)})  # scaffolding
training_args = SimpleNamespace(generation_max_length=5, generation_num_beams=1, generation_length_penalty=1.0,  # scaffolding
                                per_device_eval_batch_size=4, predict_with_generate=True)  # scaffolding
per_device_eval_batch_size = int(training_args.per_device_eval_batch_size)
eval_batch_size = int(training_args.per_device_eval_batch_size) * jax.device_count()
state = SimpleNamespace(params=jax.tree_util.tree_map(lambda x: jnp.stack([x] * jax.local_device_count()), model.params))  # scaffolding: the replicated TrainState
_rs = np.random.RandomState(0)  # scaffolding
vectorized_datasets = {"eval": [{"inputs": _rs.randn(16).astype(np.float32), "labels": _rs.randint(0, 8, 5)} for _ in range(10)]}  # scaffolding: 10 utterances of equal length


class _Batch(dict):  # scaffolding: transformers BatchFeature (a dict with .data)
    @property  # scaffolding
    def data(self):  # scaffolding
        return dict(self)  # scaffolding


def data_collator(samples):  # scaffolding: FlaxDataCollatorSpeechSeq2SeqWithPadding; equal lengths, so "longest" padding changes nothing
    return _Batch(inputs=np.stack([s["inputs"] for s in samples]), labels=np.stack([s["labels"] for s in samples]))  # scaffolding


# ---- run_flax_speech_recognition_seq2seq.py, main(): generation function and the evaluation loop ----
# Define generation function
gen_kwargs = {
    "max_length": training_args.generation_max_length,
    "num_beams": training_args.generation_num_beams,
    "length_penalty": training_args.generation_length_penalty,
}


def generate_step(params, batch):
    model.params = params
    output_ids = model.generate(batch["inputs"], **gen_kwargs)
    return output_ids.sequences


if training_args.predict_with_generate:
    p_generate_step = jax.pmap(generate_step, "batch")

eval_preds = []
eval_labels = []
final_step = False  # scaffolding: run_evaluation(step, final_step=False)
eval_samples_idx = np.arange(len(vectorized_datasets["eval"]))  # scaffolding: get_grouped_indices orders by length; all lengths are equal here
eval_batch_idx = generate_batch_splits(eval_samples_idx, eval_batch_size, drop_last_batch=False)

try:  # scaffolding
    for i, batch_idx in enumerate(tqdm(eval_batch_idx, desc="Evaluating ...", position=2)):
        samples = [vectorized_datasets["eval"][int(idx)] for idx in batch_idx]
        batch = data_collator(samples)
        labels = batch["labels"]

        # generation
        if training_args.predict_with_generate:
            if not final_step:
                generated_ids = pad_shard_unpad(p_generate_step)(state.params, batch.data)
                eval_preds.extend(
                    jax.device_get(
                        generated_ids.reshape(-1, gen_kwargs["num_beams"], gen_kwargs["max_length"])
                    )
                )
            eval_labels.extend(labels)
    _leaf = jax.tree_util.tree_leaves(model.params)[0]  # scaffolding
    print(f"model.params['w'] after evaluation: {type(_leaf).__name__} (a tracer leaked from inside pmap: {isinstance(_leaf, jax.core.Tracer)})")  # scaffolding
    _report({"jit(_fun)"}, len(eval_batch_idx))  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
