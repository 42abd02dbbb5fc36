# source: https://github.com/enerrio/jax-gpt2/blob/00a808b25febf44f11afb3e84e42a25cddf76794/gpt/train.py
# expect: none
# runtime: COMPILES 2 CALLS 33
# why: The optax optimizer is passed straight through eqx.filter_jit and a fresh eqx.nn.inference_mode(model) is built before every validation pass; both are treated as static by value, so train_step and validate_step each compile once.

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
import equinox as eqx
import jax
import jax.numpy as jnp
import jax.random as jr
import numpy as np
import optax
from torch.utils.data import DataLoader, Dataset


class GPTModel(eqx.Module):  # scaffolding: tiny stand-in for gpt/model.py GPTModel (same call signature)
    embed: eqx.nn.Embedding
    drop_emb: eqx.nn.Dropout
    out_head: eqx.nn.Linear

    def __init__(self, cfg, key):
        k1, k2 = jr.split(key)
        self.embed = eqx.nn.Embedding(cfg["vocab_size"], cfg["emb_dim"], key=k1)
        self.drop_emb = eqx.nn.Dropout(cfg["drop_rate"])
        self.out_head = eqx.nn.Linear(cfg["emb_dim"], cfg["vocab_size"], use_bias=False, key=k2)

    def __call__(self, x, inference=False, key=None):
        h = jax.vmap(self.embed)(x)
        h = self.drop_emb(h, inference=inference, key=key)
        return jax.vmap(self.out_head)(h)


CFG = {"vocab_size": 64, "emb_dim": 16, "drop_rate": 0.1}  # scaffolding


@eqx.filter_value_and_grad
def loss_fn(model, x, y, keys):
    """Forward pass of model and compute loss."""
    logits = jax.vmap(model, in_axes=(0, None, 0))(x, False, keys)
    loss = optax.losses.softmax_cross_entropy_with_integer_labels(logits, y)
    return loss.mean()


@eqx.filter_jit
def train_step(model, optim, opt_state, x, y, keys):
    """Single training step for a batch of data. Forward pass, compute loss/grads, update weights."""
    loss, grads = loss_fn(model, x, y, keys)
    updates, opt_state = optim.update(grads, opt_state, eqx.filter(model, eqx.is_array))
    model = eqx.apply_updates(model, updates)
    grad_norm = optax.tree_utils.tree_l2_norm(grads)
    return model, opt_state, loss, grad_norm


@eqx.filter_jit
def validate_step(inference_model, x, y):
    def validation_loss_fn(model, x, y):
        logits = jax.vmap(model, in_axes=(0, None, None))(x, True, None)
        loss = optax.softmax_cross_entropy_with_integer_labels(logits, y)
        return loss.mean()

    loss = validation_loss_fn(inference_model, x, y)
    return loss


def infinite_dataloader(dataloader):
    while True:
        for x_batch, y_batch in dataloader:
            yield x_batch, y_batch


def train(model, optim, train_dataloader, val_dataloader, key, num_steps, eval_freq):
    """Train the model."""
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    tokens_seen = 0
    train_iter = infinite_dataloader(train_dataloader)
    # (rich Live panel, progress bars and logging cut: scaffolding)
    for step in range(1, num_steps + 1):
        lr = opt_state.hyperparams["learning_rate"]
        # train phase
        x_batch, y_batch = next(train_iter)
        key, *subkeys = jr.split(key, len(x_batch) + 1)
        subkeys = jnp.array(subkeys)
        model, opt_state, loss, grad_norm = train_step(
            model, optim, opt_state, x_batch, y_batch, subkeys
        )
        loss = loss.item()
        grad_norm = grad_norm.item()
        lr = lr.item()
        tokens_seen += x_batch.size

        if (step % eval_freq) == 0:
            # validation phase
            val_loss = 0.0
            inference_model = eqx.nn.inference_mode(model)
            for x_val, y_val in val_dataloader:
                val_loss += validate_step(inference_model, x_val, y_val)
            # Average and store loss
            val_loss /= len(val_dataloader)
            val_loss = val_loss.item()
            # (generate_text sampling cut: scaffolding - it is not jitted)
    return model


# --- run_train.py optimizer ---
from functools import partial


@partial(optax.inject_hyperparams, static_args="wd")
def create_optimizer(learning_rate, wd):
    return optax.chain(
        optax.scale_by_adam(),
        optax.add_decayed_weights(weight_decay=wd),
        optax.scale_by_learning_rate(learning_rate=learning_rate),
    )


# --- gpt/data.py GPTDataset/collate_fn over an in-memory token array: scaffolding ---
class GPTDataset(Dataset):
    def __init__(self, tokens, seq_len, stride):
        self.tokens, self.seq_len, self.stride = tokens, seq_len, stride

    def __len__(self):
        return (len(self.tokens) - self.seq_len - 1) // self.stride + 1

    def __getitem__(self, idx):
        start_token = idx * self.stride
        sequence = self.tokens[start_token : start_token + self.seq_len + 1]
        return sequence[:-1], sequence[1:]


def collate_fn(batch):
    """Convert tensors to Jax arrays."""
    input_batch, target_batch = zip(*batch)
    input_array = jnp.array(input_batch)
    target_array = jnp.array(target_batch)
    return input_array, target_array


toks = np.random.default_rng(0).integers(0, 64, 2000).astype(np.uint16)  # scaffolding
train_dataloader = DataLoader(GPTDataset(toks[:1500], 16, 16), batch_size=4, shuffle=True, drop_last=True, collate_fn=collate_fn)
val_dataloader = DataLoader(GPTDataset(toks[1500:], 16, 16), batch_size=4, shuffle=True, drop_last=True, collate_fn=collate_fn)
lr_scheduler = optax.schedules.warmup_cosine_decay_schedule(
    init_value=0.0, peak_value=6e-4, warmup_steps=2, decay_steps=12, end_value=6e-5  # scaffolding: args cut
)
optim = create_optimizer(lr_scheduler, 0.1)
NUM_STEPS = 12  # scaffolding
model = train(GPTModel(CFG, jr.key(21)), optim, train_dataloader, val_dataloader, jr.key(0), NUM_STEPS, 4)
_report({"jit(train_step)", "jit(validate_step)"}, NUM_STEPS + 3 * len(val_dataloader))  # scaffolding
