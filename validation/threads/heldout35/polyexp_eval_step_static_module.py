# source: https://github.com/SAR2652/Polynomial-Expansion/blob/d95ce88ad3f34dcc6324578822e53d24d1f40fb1/src/jax_implementation/utils.py
# expect: none
# runtime: COMPILES 1 CALLS 6
# why: eval_step takes the Flax model as a static argument; Linen modules are frozen dataclasses with field-based hashing and the same model object is passed every epoch, so eval_step compiles once.

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
import functools
import numpy as np
import jax.numpy as jnp
from jax import random
import flax.linen as nn  # scaffolding


@functools.partial(jax.jit, static_argnums=0)
def eval_step(model, params, inputs):
    logits = model.apply({'params': params}, inputs, targets=None, eval=True)
    probs = jax.nn.softmax(logits, axis=-1)
    preds = jnp.argmax(probs, axis=-1)
    return preds, probs


class CrossAttentionModelFLAX(nn.Module):  # scaffolding: tiny stand-in for model.py's seq2seq model
    vocab_size: int
    hidden: int = 16

    @nn.compact
    def __call__(self, inputs, targets=None, eval=False, curr_epoch=None,
                 warmup_epochs=None):
        emb = nn.Embed(self.vocab_size, self.hidden)
        out = nn.Dense(self.vocab_size)
        h = emb(inputs).mean(axis=1)
        decoder_input = jnp.zeros((inputs.shape[0], 1), jnp.int32)
        outputs = []
        for t in range(inputs.shape[1]):
            logits = out(h + emb(decoder_input)[:, 0])
            outputs.append(logits)
            if not eval and curr_epoch is not None and \
                    warmup_epochs is not None and curr_epoch < warmup_epochs:
                decoder_input = targets[:, t:t+1]  # Use ground truth
            else:
                probs = jax.nn.softmax(logits, axis=-1)
                decoder_input = jnp.argmax(probs, axis=-1, keepdims=True)
        return jnp.stack(outputs, axis=1)


# --- ddp_train.train_model, validation part, reduced (scaffolding) ---
batch_size, seq_len, vocab, epochs = 8, 6, 20, 3  # scaffolding
ddp = False
model = CrossAttentionModelFLAX(vocab)
variables = model.init(random.PRNGKey(0), jnp.ones((batch_size, seq_len), jnp.int32),
                       jnp.ones((batch_size, seq_len), jnp.int32))  # scaffolding: init_train_state
val_batches = [jax.random.randint(random.PRNGKey(i), (batch_size, seq_len), 0, vocab)
               for i in range(2)]  # scaffolding: two full validation batches
optimized_eval_step = jax.pmap(eval_step, axis_name='num_devices',
                               static_broadcasted_argnums=(0,)) \
    if ddp else eval_step

calls = 0  # scaffolding
for epoch in range(epochs):
    model_params = variables['params']  # state.params after the epoch's training (scaffolding: not trained here)
    # train_epoch_or_evaluate((model, model_params), val_dataloader, ..., optimized_eval_step, ..., "eval")
    params = model_params
    predictions_list = []
    for step, inputs_jnp in enumerate(val_batches):
        batch_preds, batch_probs = optimized_eval_step(model, params,
                                                       inputs_jnp)
        predictions_list.append(batch_preds)
        calls += 1  # scaffolding
    print(epoch, np.asarray(jnp.concatenate(predictions_list, axis=0)).shape)
_report({"jit(eval_step)"}, calls)
