# source: https://github.com/Numeri/non-linear-transformer/blob/d8930a12e0e0f67e85a268153fa9952989fc9743/dataloader.py
# expect: shape-churn at line 99
# runtime: COMPILES 2 CALLS 3
# why: get_batches clips the last batch with np.minimum(batch_end, line_count), so when the corpus size is not a multiple of batch_size the last batch is smaller and the jitted train_step (from the d8930a1 fix) compiles a second time every epoch.
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
import flax
import jax

from flax import linen as nn
from flax import struct
from jax import numpy as np, random

import time


class Hyperparameters(struct.PyTreeNode):  # scaffolding: stands in for hyperparameters.py
    batch_size: int = 4
    seq_length: int = 6
    vocabulary_size: int = 16
    learning_rate: float = 1e-3
    epochs: int = 1
    model_folder: str = struct.field(pytree_node=False, default="")
    vocabulary_prefix: str = struct.field(pytree_node=False, default="")
    dataset_prefix: str = struct.field(pytree_node=False, default="")
    language_pair: tuple = struct.field(pytree_node=False, default=("de", "en"))


hypers = Hyperparameters()  # scaffolding


class Transformer(nn.Module):  # scaffolding: tiny stand-in for model.Transformer
    hypers: Hyperparameters

    @nn.compact
    def __call__(self, source, target):
        h = nn.Embed(self.hypers.vocabulary_size, 8)(source)
        h = nn.Dropout(0.1, deterministic=False)(h)
        return nn.Dense(self.hypers.vocabulary_size)(h)


def max_decode_logits(hypers, key, model, params, source):  # scaffolding: stands in for decode.max_decode_logits
    logits = model.apply(params, source[None], source[None], rngs={'dropout': key})[0]
    return jax.nn.softmax(logits)


import linecache  # (dataloader.py)
import os
import tempfile
from typing import Union


class spm:  # scaffolding: sentencepiece is not installed; a character-level stand-in tokenizer
    class SentencePieceProcessor:
        def __init__(self, model_file=None):
            pass

        def encode(self, sentence):
            return [ord(c) % 16 for c in sentence.strip()]


def get_batches(hypers : Hyperparameters, key : np.ndarray, dataset_name : str):
    sp = spm.SentencePieceProcessor(model_file=f'{hypers.model_folder}/{hypers.vocabulary_prefix}.model')

    source_filename = f'{hypers.dataset_prefix}/{dataset_name}.{hypers.language_pair[0]}'
    target_filename = f'{hypers.dataset_prefix}/{dataset_name}.{hypers.language_pair[1]}'

    _ = linecache.getline(source_filename, 0)
    _ = linecache.getline(target_filename, 0)

    line_count = len(linecache.cache[source_filename][2])

    indices = np.arange(line_count)
    indices = random.permutation(key, indices)

    for batch_start in range(0, line_count, hypers.batch_size):
        batch_end = batch_start + hypers.batch_size
        batch_end = np.minimum(batch_end, line_count)

        sources = [process_sentence(hypers, sp, linecache.getline(source_filename, indices[i]))
                    for i in range(batch_start, batch_end)]

        targets = [process_sentence(hypers, sp, linecache.getline(target_filename, indices[i]))
                    for i in range(batch_start, batch_end)]

        sources = np.stack(sources)
        targets = np.stack(targets)

        yield sources, targets


def process_sentence(hypers : Hyperparameters, sp : spm.SentencePieceProcessor, sentence : Union[str, bytes]):
    sentence = sp.encode(sentence)
    sentence = np.array(sentence, dtype='int32')
    padding = np.maximum(0, hypers.seq_length - sentence.shape[0])
    sentence = np.pad(sentence, [0, padding])
    sentence = sentence[:hypers.seq_length]

    return sentence


_data_dir = tempfile.mkdtemp()  # scaffolding: 10 sentence pairs on disk instead of the WMT text files
for _lang in ("de", "en"):
    with open(os.path.join(_data_dir, f"validation.{_lang}"), "w") as _f:
        _f.write("\n".join(f"satz {i} {_lang}" for i in range(10)) + "\n")
hypers = hypers.replace(dataset_prefix=_data_dir)  # scaffolding


@struct.dataclass
class _Optimizer:  # scaffolding: flax.optim (removed from flax) -> a minimal Adam-less stand-in with the same API
    target: dict
    learning_rate: float = struct.field(pytree_node=False)

    def apply_gradient(self, grad):
        return self.replace(target=jax.tree_util.tree_map(lambda p, g: p - self.learning_rate * g, self.target, grad))


key = random.PRNGKey(11)

last_time = time.perf_counter()

# Initialize model
model = Transformer(hypers)
dummy = np.zeros((hypers.batch_size, hypers.seq_length), dtype=int)

# Initialize parameters
key, key_, rng = random.split(key, 3)
params = model.init({'dropout': rng, 'params': key_}, dummy, dummy)

@jax.jit
def train_step(key, optimizer, source_batch, target_batch):
    def loss(params):
        def cross_entropy_sentence(source, target):
            """Cross entropy loss for a single source-target sentence pair"""
            logits = max_decode_logits(hypers, key, model, params, source)
            target_logits = jax.nn.one_hot(target, hypers.vocabulary_size, dtype='float32')
            weights = np.where(logits.sum(axis=-1) > 0, 1, 0)

            cross_entropies = -weights*np.sum(target_logits * np.log(logits), axis=-1)

            return np.mean(cross_entropies, axis=-1)

        sentence_losses = jax.vmap(cross_entropy_sentence)(source_batch, target_batch)
        return np.mean(sentence_losses)

    loss_val, grad = jax.value_and_grad(loss)(optimizer.target)
    optimizer = optimizer.apply_gradient(grad)

    return optimizer, loss_val

# Set up optimizer
optimizer = _Optimizer(params, hypers.learning_rate)  # scaffolding: was flax.optim.Adam(hypers.learning_rate).create(params)

n_batches = 0  # scaffolding
# Training loop
for epoch in range(hypers.epochs):
    # Get training batches
    key, key_ = random.split(key)
    training_batches = get_batches(hypers, key_, 'validation')
    
    for batch_num, (source_batch, target_batch) in enumerate(training_batches):
        key, key_ = random.split(key)
        optimizer, loss_val = train_step(key_, optimizer, source_batch, target_batch)
        n_batches += 1  # scaffolding
        # (checkpointing and logging trimmed)

_report({"jit(train_step)"}, n_batches)
