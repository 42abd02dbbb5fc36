# source: https://github.com/5uru/Implementation/blob/b0be19a944cacfe57ad4a923c7963a10396601f3/transformers.ipynb
# expect: shape-churn at line 93
# runtime: COMPILES 2 CALLS 79
# why: train() slices the 2500 training examples with range(0, len(x_train), 32), so the epoch ends with a 4-example batch and the jitted train_step is compiled a second time for that shape.

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
from jax import numpy as jnp
import jax.random as random
import numpy as np

from flax import linen as nn
import optax
from flax.training.train_state import TrainState

jax.config.update("jax_enable_x64", True)

# scaffolding: stand-in for the tokenised "difference" dataset (train 2500 and test 1000 examples, as in
# the notebook, padded to max_len = 16 tokens from a 12-token vocabulary); tensorflow's tokenizer is not installed
vocab_size = 12  #@param = 'int'
max_len = 16  # scaffolding: MAX_TEST_LENGTH + 1
_rs = np.random.RandomState(0)  # scaffolding
x_train = jnp.array(_rs.randint(1, vocab_size, (2500, max_len)), dtype=jnp.int64)  # scaffolding
y_train = jnp.array(_rs.randint(0, 2, 2500), dtype=jnp.int64)  # scaffolding
x_test = jnp.array(_rs.randint(1, vocab_size, (1000, max_len)), dtype=jnp.int64)  # scaffolding
y_test = jnp.array(_rs.randint(0, 2, 1000), dtype=jnp.int64)  # scaffolding

def train(Model, epochs=10, batch_size=32, lr=3e-4, wd=1e-5, **kwargs):
    # Initialize the model
    model = Model(**kwargs)
    params_model = model.init(random.PRNGKey(0), x_train[:128])

    # Initialize the optimizer
    optimizer = optax.adamw(learning_rate=lr, weight_decay=wd)
    opt_state = optimizer.init(params_model)

    # Create a TrainState
    state = TrainState.create(apply_fn=model.apply, params=params_model, tx=optimizer)

    # Define the loss function
    def loss_fn(params, x, y):
        logits = state.apply_fn(params, x)
        loss = optax.softmax_cross_entropy_with_integer_labels(logits, y)
        return loss.mean()

    grad_fn = jax.value_and_grad(loss_fn)

    @jax.jit
    def train_step(state, x, y):
        loss, grads = grad_fn(state.params, x, y)
        new_state = state.apply_gradients(grads=grads)
        return new_state, loss

    # Report accuracy
    def report(state, x, y):
        logits = state.apply_fn(state.params, x)
        predictions = (logits[:, 1] > 0).astype(jnp.int32)
        return jnp.mean(predictions == y)

    # Training loop
    num_train_batches = len(x_train) // batch_size
    num_test_batches = len(x_test) // batch_size

    print("Training starts...")
    for epoch in range(epochs):
        # Training
        epoch_loss = 0
        for i in range(0, len(x_train), batch_size):
            x_batch = x_train[i:i + batch_size]
            y_batch = y_train[i:i + batch_size]
            state, loss = train_step(state, x_batch, y_batch)
            epoch_loss += loss

        # Evaluation
        train_accuracy = 0
        for i in range(0, len(x_train), batch_size):
            x_batch = x_train[i:i + batch_size]
            y_batch = y_train[i:i + batch_size]
            train_accuracy += report(state, x_batch, y_batch)
        train_accuracy /= num_train_batches

        test_accuracy = 0
        for i in range(0, len(x_test), batch_size):
            x_batch = x_test[i:i + batch_size]
            y_batch = y_test[i:i + batch_size]
            test_accuracy += report(state, x_batch, y_batch)
        test_accuracy /= num_test_batches

        print(f"Epoch {epoch + 1}/{epochs}")
        print(f"Loss: {epoch_loss/num_train_batches:.4f}")
        print(f"Train accuracy: {train_accuracy:.4f}")
        print(f"Test accuracy: {test_accuracy:.4f}")

class SelfAttention(nn.Module):
    embed_dim : int

    @nn.compact
    def __call__(self, x):
        # Calculate query, key, and value matrices using linear layers
        query = nn.Dense(self.embed_dim)(x)
        key = nn.Dense(self.embed_dim)(x)
        value = nn.Dense(self.embed_dim)(x)

        # Calculate attention scores (scaled dot-product attention)
        attention_scores = jnp.matmul(query, jnp.swapaxes(key, -2, -1)) / jnp.sqrt(self.embed_dim)
        attention_weights = nn.softmax(attention_scores, axis=-1)

        # Apply attention weights to values
        output = jnp.matmul(attention_weights, value)
        return output

class SimpleTransformer(nn.Module):
    vocab_size: int
    embed_dim: int =128
    num_classes: int = 2

    @nn.compact
    def __call__(self, x):
        # Embedding layer
        x = nn.Embed(self.vocab_size, self.embed_dim)(x)
        # Self-attention layer
        x = SelfAttention(self.embed_dim)(x)
        # Extract the CLS token (the last token)
        cls_token = x[:, -1, :]  # Assuming the last token is the CLS token

        # Linear classifier
        logits = nn.Dense(self.num_classes)(cls_token)
        return logits

kwg = dict(
        vocab_size=vocab_size,
        embed_dim=64,
)
train(SimpleTransformer, epochs=1, **kwg)  # scaffolding: epochs cut from the default 10
_report({"jit(train_step)"}, len(range(0, len(x_train), 32)))  # scaffolding
