# source: https://github.com/Numeri/non-linear-transformer/commit/d8930a12e0e0f67e85a268153fa9952989fc9743
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: the fix jits one train_step(key, optimizer, source_batch, target_batch) at module level and passes the batch as an argument, so it compiles once.
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


def get_batches(hypers, key, split):  # scaffolding: 4 fixed-size batches instead of the WMT loader
    for i in range(4):
        k = random.fold_in(key, i)
        src = random.randint(k, (hypers.batch_size, hypers.seq_length), 0, hypers.vocabulary_size)
        yield src, src


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

_report({"jit(train_step)", "jit(loss)"}, n_batches)
