# source: https://github.com/SAR2652/Polynomial-Expansion/blob/d95ce88ad3f34dcc6324578822e53d24d1f40fb1/src/jax_implementation/ddp_train.py
# expect: changing-static at line 156
# runtime: COMPILES 4 CALLS 9
# why: train_step is jitted with curr_epoch static (the model uses it in a Python teacher-forcing test), and the training loop passes the epoch number, so train_step is retraced and recompiled at the start of every epoch, long after the warm-up decision stops changing.

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
import optax
from jax import random
import jax.numpy as jnp
from typing import Tuple
from flax.training import train_state
import flax.linen as nn  # scaffolding


@jax.jit
def apply_gradient_update(state, grads):
    return state.apply_gradients(grads=grads)


def create_train_step_fn(ddp: bool = False):
    """
    Returns a unified training step function.

    Args:
        ddp (bool): If True, performs DDP-style training using `jax.pmap`.

    Returns:
        train_step: (state, inputs, targets) -> (state, loss, grads)
    """

    def train_step(state: train_state.TrainState, inputs: jnp.ndarray,
                   targets: jnp.ndarray, curr_epoch: int, warmup_epochs: int
                   ) -> Tuple[train_state.TrainState, jnp.ndarray, dict]:

        def loss_fn(params):
            logits = state.apply_fn({'params': params}, inputs, targets,
                                    curr_epoch=curr_epoch,
                                    warmup_epochs=warmup_epochs)
            loss = optax.softmax_cross_entropy_with_integer_labels(logits,
                                                                   targets)
            return loss.mean(), logits

        (loss, logits), grads = jax.value_and_grad(loss_fn,
                                                   has_aux=True)(state.params)

        if ddp:
            loss = jax.lax.pmean(loss, axis_name='num_devices')
            grads = jax.lax.pmean(grads, axis_name='num_devices')

        # Note: We return grads separately, letting the user decide when to
        # apply
        return state, loss, grads

    # Compile for performance
    return jax.pmap(train_step, axis_name='num_devices',
                    static_broadcasted_argnums=(3, 4)) if ddp else \
        jax.jit(train_step, static_argnums=(3, 4))


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
        for t in range(targets.shape[1]):
            logits = out(h + emb(decoder_input)[:, 0])
            outputs.append(logits)
            # Teacher forcing during training at all times for a fixed number
            # of epochs  (model.py, verbatim condition)
            if not eval and curr_epoch is not None and \
                    warmup_epochs is not None and curr_epoch < warmup_epochs:
                decoder_input = targets[:, t:t+1]  # Use ground truth
            else:
                probs = jax.nn.softmax(logits, axis=-1)
                decoder_input = jnp.argmax(probs, axis=-1, keepdims=True)
        return jnp.stack(outputs, axis=1)


def init_train_state(model, random_key, batch_size: int = 1, seq_len: int = 30,
                     learning_rate: float = 0.001) -> train_state.TrainState:

    dummy_inputs = jnp.ones((batch_size, seq_len),
                            dtype=jnp.int32)
    dummy_targets = jnp.ones((batch_size, seq_len),
                             dtype=jnp.int32)

    # Initialize the Model
    variables = model.init(random_key, dummy_inputs, dummy_targets)
    # Create the optimizer
    optimizer = optax.adam(learning_rate)
    # Create a State
    return train_state.TrainState.create(
        apply_fn=model.apply,
        tx=optimizer,
        params=variables['params']
    )


# --- train_model(args), reduced (scaffolding: argparse, wandb, orbax, tokenizer and CSV data left out) ---
epochs = 4  # scaffolding: the Kaggle runs use --epochs 50..250
warmup_epochs = 2  # scaffolding: default is 25
warmup_steps = 1  # scaffolding: default is 10
batch_size, seq_len, vocab = 8, 6, 20  # scaffolding
ddp = False
model = CrossAttentionModelFLAX(vocab)  # scaffolding
prng_key = random.PRNGKey(0)
state = init_train_state(model, prng_key, batch_size, seq_len, 1e-3)
batches = [(jax.random.randint(random.PRNGKey(i), (batch_size, seq_len), 0, vocab),
            jax.random.randint(random.PRNGKey(100 + i), (batch_size, seq_len), 0, vocab))
           for i in range(2)]  # scaffolding: two full batches per epoch

# initialize model training/evaluation and update functions
train_step = create_train_step_fn(ddp)
update_model = apply_gradient_update

# model warmup
for _ in range(warmup_steps):
    inputs, targets = batches[0]
    _, _, _ = train_step(state, inputs, targets, 0, warmup_epochs)

calls = warmup_steps  # scaffolding
for epoch in range(epochs):
    # train_epoch_or_evaluate(state, train_dataloader, ..., "train", epoch, warmup_epochs, ...)
    curr_epoch = epoch
    for step, (inputs_jnp, targets_jnp) in enumerate(batches):
        state, loss, grads = train_step(state, inputs_jnp, targets_jnp,
                                        curr_epoch, warmup_epochs)
        state = update_model(state, grads)
        calls += 1  # scaffolding
    print(f"Epoch {epoch + 1}: Training Loss = {float(loss):.4f}")
_report({"jit(train_step)"}, calls)
