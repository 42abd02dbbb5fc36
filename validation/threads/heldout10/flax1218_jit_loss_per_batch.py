# source: https://github.com/google/flax/issues/1218
# expect: jit-in-loop-or-body at line 81
# runtime: COMPILES 6 CALLS 3
# why: make_batched_loss closes over each batch and returns jax.jit(loss) of a new inner function, called once per training batch, so every iteration traces and compiles the loss again (the maintainer: "you end up calling jit each iteration").

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
import jax
from flax import linen as nn
from jax import numpy as np, random
from types import SimpleNamespace  # scaffolding

hypers = SimpleNamespace(vocabulary_size=16, seq_length=8, batch_size=4, learning_rate=1e-3, epochs=1)  # scaffolding


class Transformer(nn.Module):  # scaffolding: stand-in for model.Transformer
    hypers: SimpleNamespace

    @nn.compact
    def __call__(self, source, target):
        x = nn.Embed(self.hypers.vocabulary_size, 8)(source)
        return nn.Dense(self.hypers.vocabulary_size)(x)


def max_decode_logits(hypers, key, model, params, source):  # scaffolding: stand-in for decode.max_decode_logits
    return jax.nn.softmax(model.apply(params, source[None], source[None])[0])


def get_batches(hypers, key, split):  # scaffolding: stand-in for dataloader.get_batches
    for i in range(3):
        k1, k2, key = random.split(key, 3)
        yield (random.randint(k1, (hypers.batch_size, hypers.seq_length), 1, hypers.vocabulary_size),
               random.randint(k2, (hypers.batch_size, hypers.seq_length), 1, hypers.vocabulary_size))


key = random.PRNGKey(11)

# Initialize model
model = Transformer(hypers)
dummy = np.zeros((hypers.batch_size, hypers.seq_length), dtype=int)

# Initialize parameters
key, key_, rng = random.split(key, 3)
params = model.init({'dropout': rng, 'params': key_}, dummy, dummy)

def make_batched_loss(key, source_batch, target_batch):
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
    return jax.jit(loss)

# Set up optimizer
opt_target = params  # scaffolding: flax.optim.Adam(hypers.learning_rate).create(params) no longer exists

# Training loop
n_batches = 0  # scaffolding
for epoch in range(hypers.epochs):
    # Get training batches
    key, key_ = random.split(key)
    training_batches = get_batches(hypers, key_, 'validation')
    
    for batch_num, (source_batch, target_batch) in enumerate(training_batches):
        key, key_ = random.split(key)
        loss = make_batched_loss(key_, source_batch, target_batch)
        loss_val_grad = jax.value_and_grad(loss)

        loss_val, grad = loss_val_grad(opt_target)
        opt_target = jax.tree_util.tree_map(lambda p, g: p - hypers.learning_rate * g, opt_target, grad)  # scaffolding: optimizer.apply_gradient(grad)
        n_batches += 1  # scaffolding

_report({"jit(loss)"}, n_batches)  # scaffolding
