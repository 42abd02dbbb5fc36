# source: https://github.com/sanchit-gandhi/whisper-jax/commit/09b283dfd944eb3d7486ce0481e9c3976b095da6
# expect: shape-churn at line 114
# runtime: COMPILES 2 CALLS 4
# why: forward pads a partial batch only up to min_batch_size when it is small, so a short clip reaches the pmapped generate with batch 1 and a longer one with batch 4: two input shapes, two compiles.
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
import math
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
from flax import jax_utils
from flax.core.frozen_dict import freeze
from flax.training.common_utils import shard


class _GenerateOutput(NamedTuple):  # scaffolding: stands in for the Flax generate output
    sequences: jnp.ndarray


class FlaxWhisperPipline:
    def __init__(
        self,
        checkpoint="openai/whisper-large-v2",
        dtype=jnp.bfloat16,
        batch_size=None,
        max_length=None,
    ):
        self.checkpoint = checkpoint
        self.dtype = dtype

        # scaffolding: no WhisperProcessor / FlaxWhisperForConditionalGeneration download; a linear "decoder" instead
        self.params = {"w": jnp.ones((80, 51865)) * 1e-3}

        self.max_length = max_length if max_length is not None else 8
        self.min_batch_size = jax.local_device_count()
        self.batch_size = (
            batch_size if batch_size is not None else self.min_batch_size
        )  # we need a minimum of 1 batch per-device

        def generate(params, input_features, forced_decoder_ids, return_timestamps):
            # scaffolding: stands in for self.model.pipeline_generate(...)
            logits = input_features.mean(-1) @ params["w"]
            output_ids = _GenerateOutput(jnp.tile(jnp.argmax(logits, -1)[:, None], (1, self.max_length)))
            return output_ids

        # use pmap for DP by default - this is compatible on a Colab TPU v2
        self.params = jax_utils.replicate(self.params)
        self.p_generate = jax.pmap(
            generate, "input_features", in_axes=(0, 0, None), out_axes=0, static_broadcasted_argnums=(3,)
        )
        self.is_sharded = False

    def generate(self, input_features, language=None, task=None, return_timestamps=False):
        forced_decoder_ids = jnp.array([[1, 50259], [2, 50359]])  # scaffolding: get_forced_decoder_ids(...)
        if not self.is_sharded:
            # if we're using pmap we need to manually replicate the input data across devices and gather the output tokens
            output_ids = self.p_generate(
                freeze(self.params), shard(input_features), forced_decoder_ids, return_timestamps
            ).sequences
            output_ids = jax.device_get(output_ids.reshape(-1, self.max_length))
        return output_ids

    def chunk_iter_with_batch(self, inputs, chunk_len, stride_left, stride_right, batch_size):
        inputs_len = inputs.shape[0]
        step = chunk_len - stride_left - stride_right

        all_chunk_start_idx = np.arange(0, inputs_len, step)
        num_samples = len(all_chunk_start_idx)

        num_batches = math.ceil(num_samples / batch_size)
        batch_idx = np.array_split(np.arange(num_samples), num_batches)

        for i, idx in enumerate(batch_idx):
            chunk_start_idx = all_chunk_start_idx[idx]

            chunk_end_idx = chunk_start_idx + chunk_len

            chunks = [inputs[chunk_start:chunk_end] for chunk_start, chunk_end in zip(chunk_start_idx, chunk_end_idx)]
            # scaffolding: stands in for the WhisperFeatureExtractor (log-mel features of shape [80, frames])
            processed = {"input_features": np.stack([np.resize(c, (80, 30)).astype(np.float32) for c in chunks])}

            yield {**processed}  # (stride bookkeeping trimmed)

    def forward(self, model_inputs, batch_size=None, language=None, task=None, return_timestamps=False):
        # We need to keep track of some additional input arguments for post-processing so need to forward these on after running generation
        input_features = model_inputs.pop("input_features")
        input_batch_size = input_features.shape[0]

        if input_batch_size != batch_size:
            # here we can handle short audio inputs (< 120s) by using the minimum possible batch size
            adjusted_batch_size = self.min_batch_size if input_batch_size <= self.min_batch_size else batch_size
            padding = np.zeros(
                [adjusted_batch_size - input_batch_size, *input_features.shape[1:]], input_features.dtype
            )
            input_features = np.concatenate([input_features, padding])

        pred_ids = self.generate(input_features, language=language, task=task, return_timestamps=return_timestamps)[
            :input_batch_size
        ]

        # tokenizer's decode method expects an extra dim - we insert it here for convenience
        out = {"tokens": np.asarray(pred_ids[:, None, :])}
        return out

    def __call__(self, inputs, chunk_length_s=30, batch_size=None, return_timestamps=False):  # (pre/post-processing trimmed)
        batch_size = batch_size if batch_size is not None else self.batch_size
        if batch_size % self.min_batch_size != 0:
            raise ValueError(
                f"Batch size must be a multiple of the number of JAX devices, but got batch size {batch_size} and num devices {self.min_batch_size}."
            )

        dataloader = self.chunk_iter_with_batch(inputs, chunk_length_s * 16, 0, 0, batch_size)  # (scaffolding: 16 "samples" per second, no strides)
        model_outputs = []
        # iterate over our chunked audio samples
        for batch in dataloader:
            model_outputs.append(
                self.forward(batch, batch_size=batch_size, return_timestamps=return_timestamps)
            )
        return model_outputs


pipeline = FlaxWhisperPipline(batch_size=4)  # scaffolding
n_calls = 0  # scaffolding
for seconds in (20, 110, 60, 25):  # scaffolding: a short clip, a long one, a medium one, a short one
    audio = np.random.default_rng(seconds).standard_normal(seconds * 16)
    outputs = pipeline(audio, chunk_length_s=30)
    n_calls += len(outputs)
_report({"jit(_fun)"}, n_calls)  # scaffolding: on jax 0.10.2 the pmapped generate compiles under the name jit(_fun)
