# source: https://github.com/Kaynup/Binary-Text-Classification-with-Sklearn-Jax/blob/51597569360a4174838a2e80b3d5ad060588a0a8/notebooks/Jax-workstation-basic.ipynb
# expect: shape-churn at line 201
# runtime: COMPILES 2 CALLS 28
# why: utils.batch_iter slices range(0, len(X), batch_size) without dropping the remainder, so every epoch ends with a short batch (1,262,889 % 200 = 89 rows in the notebook) and the jitted train_step is traced and compiled a second time for that shape.

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
import numpy as np  # scaffolding: imports from earlier cells

# scaffolding: stand-in for the tokenised Sentiment140 split of cells 0-8 (1,262,889 train rows in the
# notebook; here 1,289 rows, so batch_size=200 leaves a short last batch of 89 just as 1,262,889 % 200 = 89)
_rng = np.random.default_rng(0)
train_X_ids = _rng.integers(0, 1000, size=(1289, 34))
train_y_ids = _rng.integers(0, 2, size=(1289,))
test_X_ids = _rng.integers(0, 1000, size=(300, 34))
test_y_ids = _rng.integers(0, 2, size=(300,))


# utils.py (repository root), the helpers the notebook imports; scaffolding: inlined
import jax
import jax.numpy as jnp
import optax


def binary_loss(logits, labels):
    # logits: (batch, ), labels: (batch, )
    loss = optax.sigmoid_binary_cross_entropy(logits, labels)
    return loss.mean()


def compute_metrics(logits, labels):
    preds = (jax.nn.sigmoid(logits) > 0.5).astype(jnp.int32)
    acc = (preds == labels).mean()

    # True positives, false positives, false negatives
    tp = jnp.sum((preds == 1) & (labels == 1))
    fp = jnp.sum((preds == 1) & (labels == 0))
    fn = jnp.sum((preds == 0) & (labels == 1))

    # Precision, Recall, F1 - safety from divide-by-zero
    precision = tp / (tp + fp + 1e-8)
    recall = tp / (tp + fn + 1e-8)
    f1 = 2 * precision * recall / (precision + recall + 1e-8)

    return {
        'accuracy': acc,
        'precision': precision,
        'recall': recall,
        'f1': f1
    }


def batch_iter(X, y, batch_size, shuffle=True):
    idxs = np.arange(len(X))
    if shuffle:
        np.random.shuffle(idxs)
    for i in range(0, len(X), batch_size):
        b = idxs[i:i+batch_size]
        yield X[b], y[b]


# cell 10
vocab_size = 1000 # scaffolding: 256995 in the notebook (for custom tokenizer)
max_len = 34 # for custom tokenizer


# cell 11
import jax
import jax.numpy as jnp
import flax.linen as nn
import optax
from flax.training import train_state


# cell 12
class Classifier(nn.Module):
    vocab_size: int
    embed_dim: int = 128
    hidden_dim_1: int = 256
    hidden_dim_2: int = 128

    @nn.compact
    def __call__(self, x):
        # x: (batch, max_len)
        emb = nn.Embed(self.vocab_size, self.embed_dim)(x)     # (batch, max_length, embed_dim)
        pooled = emb.mean(axis=1)          # simple average pooling
        h = nn.Dense(self.hidden_dim_1)(pooled)
        h = nn.relu(h)          # activation
        h = nn.Dense(self.hidden_dim_2)(pooled)
        h = nn.relu(h)
        out = nn.Dense(1)(h)
        return out.squeeze(-1)       # logits


# cell 14
class TrainState(train_state.TrainState):
    pass

rng = jax.random.PRNGKey(0)
model = Classifier(vocab_size=vocab_size)

params = model.init(rng, jnp.ones((1, max_len), dtype=jnp.int32))
tx = optax.adam(1e-3)
state = TrainState.create(apply_fn=model.apply, params=params, tx=tx)

@jax.jit
def train_step(state, batch_x, batch_y):
    def loss_fn(params):
        logits = state.apply_fn(params, batch_x)
        loss = binary_loss(logits, batch_y)
        return loss, logits
    grad_fn = jax.value_and_grad(loss_fn, has_aux=True)
    (loss, logits), grads = grad_fn(state.params)
    state = state.apply_gradients(grads=grads)
    metrics = compute_metrics(logits, batch_y)
    return state, loss, metrics

@jax.jit
def eval_step(state, batch_x, batch_y):
    logits = state.apply_fn(state.params, batch_x)
    metrics = compute_metrics(logits, batch_y)
    return metrics


# cell 15
num_epochs = 4
batch_size = 200
log_every = 1000

# summary
history = {
    "step": [],
    "epoch": [],
    "train_loss": [],
    "train_acc": [],
    "train_precision": [],
    "train_recall": [],
    "train_f1": [],
    "test_loss": [],
    "test_acc": [],
    "test_precision": [],
    "test_recall": [],
    "test_f1": [],
}

num_train_batches = int(np.ceil(len(train_X_ids) / batch_size))
num_test_batches = int(np.ceil(len(test_X_ids) / batch_size))

print(f"Total train batches per epoch: {num_train_batches}")
print(f"Total test batches per epoch: {num_test_batches}")

global_step = 0
_calls = 0  # scaffolding

# Running sums for cumulative averages
cumulative_train_loss = 0.0
cumulative_train_acc = 0.0
cumulative_train_pre = 0.0
cumulative_train_rec = 0.0
cumulative_train_f1 = 0.0

cumulative_test_loss = 0.0
cumulative_test_acc = 0.0
cumulative_test_pre = 0.0
cumulative_test_rec = 0.0
cumulative_test_f1 = 0.0

# create test iterator
test_iter = batch_iter(test_X_ids, test_y_ids, batch_size, shuffle=True)

for epoch in range(num_epochs):
    print(f"\n===== Epoch {epoch+1}/{num_epochs} =====")

    for i, (xb, yb) in enumerate(batch_iter(train_X_ids, train_y_ids, batch_size)):
        global_step += 1
        xb = jnp.array(xb, dtype=jnp.int32)
        yb = jnp.array(yb, dtype=jnp.float32)

        # --- Train step
        state, loss, train_m = train_step(state, xb, yb)
        _calls += 1  # scaffolding
        train_loss = float(loss)
        train_acc = float(train_m["accuracy"])
        train_pre = float(train_m["precision"])
        train_rec = float(train_m["recall"])
        train_f1  = float(train_m["f1"])

        # --- Eval step (on a random test batch)
        try:
            test_xb, test_yb = next(test_iter)
        except StopIteration:
            test_iter = batch_iter(test_X_ids, test_y_ids, batch_size, shuffle=True)
            test_xb, test_yb = next(test_iter)

        test_xb = jnp.array(test_xb, dtype=jnp.int32)
        test_yb = jnp.array(test_yb, dtype=jnp.float32)
        logits = state.apply_fn(state.params, test_xb)
        test_loss = float(binary_loss(logits, test_yb))
        test_m = compute_metrics(logits, test_yb)
        test_acc = float(test_m["accuracy"])
        test_pre = float(test_m["precision"])
        test_rec = float(test_m["recall"])
        test_f1  = float(test_m["f1"])

        # --- Update cumulative sums
        cumulative_train_loss += train_loss
        cumulative_train_acc += train_acc
        cumulative_train_pre += train_pre
        cumulative_train_rec += train_rec
        cumulative_train_f1  += train_f1

        cumulative_test_loss += test_loss
        cumulative_test_acc += test_acc
        cumulative_test_pre += test_pre
        cumulative_test_rec += test_rec
        cumulative_test_f1  += test_f1

        # --- Compute cumulative averages
        avg_train_loss = cumulative_train_loss / global_step
        avg_train_acc  = cumulative_train_acc  / global_step
        avg_train_pre  = cumulative_train_pre  / global_step
        avg_train_rec  = cumulative_train_rec  / global_step
        avg_train_f1   = cumulative_train_f1   / global_step

        avg_test_loss = cumulative_test_loss / global_step
        avg_test_acc  = cumulative_test_acc  / global_step
        avg_test_pre  = cumulative_test_pre  / global_step
        avg_test_rec  = cumulative_test_rec  / global_step
        avg_test_f1   = cumulative_test_f1   / global_step

        # --- Logging
        if global_step % log_every == 0:
            print(f"[Epoch {epoch+1} | Batch {i+1}/{num_train_batches}] "
                  f"Train Loss: {avg_train_loss:.4f}, Acc: {avg_train_acc:.4f}, "
                  f"Pre: {avg_train_pre:.4f}, Rec: {avg_train_rec:.4f}, F1: {avg_train_f1:.4f} | "
                  f"Test Loss: {avg_test_loss:.4f}, Acc: {avg_test_acc:.4f}, "
                  f"Pre: {avg_test_pre:.4f}, Rec: {avg_test_rec:.4f}, F1: {avg_test_f1:.4f}")

        # --- Save to history
        history["step"].append(global_step)
        history["epoch"].append(epoch+1)
        history["train_loss"].append(avg_train_loss)
        history["train_acc"].append(avg_train_acc)
        history["train_precision"].append(avg_train_pre)
        history["train_recall"].append(avg_train_rec)
        history["train_f1"].append(avg_train_f1)
        history["test_loss"].append(avg_test_loss)
        history["test_acc"].append(avg_test_acc)
        history["test_precision"].append(avg_test_pre)
        history["test_recall"].append(avg_test_rec)
        history["test_f1"].append(avg_test_f1)


_report({"jit(train_step)"}, _calls)  # scaffolding
