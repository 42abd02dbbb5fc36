# source: https://github.com/anh-tong/nanoGPT-equinox/blob/dc26730c29b64779e5dde19fe400f72d5bbaa47d/train.py
# expect: jit-in-loop-or-body at line 106
# runtime: COMPILES 6 CALLS 6
# why: distributed_make_step (the default path, distributed = True) wraps a fresh lambda in eqx.filter_pmap on every training step, so the pmapped loss/grad is traced and compiled again at each of the 6 steps.

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
from functools import partial

import equinox as eqx
import jax
import jax.numpy as jnp
import jax.random as jrandom
import numpy as np
import optax


class GPT(eqx.Module):  # scaffolding: tiny stand-in for model.GPT with the same forward() contract
    embed: eqx.nn.Embedding
    head: eqx.nn.Linear

    def __init__(self, vocab, dim, *, key):
        k1, k2 = jrandom.split(key)
        self.embed = eqx.nn.Embedding(vocab, dim, key=k1)
        self.head = eqx.nn.Linear(dim, vocab, key=k2)

    def forward(self, x, y=None, *, key=None, inference=False):
        logits = jax.vmap(self.head)(jax.vmap(self.embed)(x))
        loss = None if y is None else optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()
        return logits, loss


batch_size = 4  # scaffolding: config values scaled down
block_size = 16
learning_rate = 6e-4
max_iters = 5
log_interval = 1
distributed = True

np.random.seed(123)
model_key, train_key, eval_key = jrandom.split(jrandom.PRNGKey(seed=123), 3)
train_data = np.random.randint(0, 65, 5000).astype(np.uint16)  # scaffolding: data/shakespeare_char/train.bin

n_devices = jax.local_device_count()
devices = jax.local_devices()


def get_batch(split):
    data = train_data
    if distributed and split == "train":
        ix = np.random.randint(len(data) - block_size, size=(batch_size * n_devices,))
        x = np.stack([data[i : i + block_size].astype(np.int32) for i in ix])
        y = np.stack([data[i + 1 : i + 1 + block_size].astype(np.int32) for i in ix])
        x = np.reshape(x, (n_devices, batch_size, -1))
        y = np.reshape(y, (n_devices, batch_size, -1))
        return jnp.array(x), jnp.array(y)


iter_num = 0
model = GPT(65, 32, key=model_key)
optimizer = optax.adamw(learning_rate)  # scaffolding: model.configure_optimizers builds an adamw multi_transform
opt_state = optimizer.init(eqx.filter(model, eqx.is_array))


@eqx.filter_value_and_grad
def compute_loss(model: GPT, inputs, labels, *, key: jrandom.PRNGKey):
    batch_size = inputs.shape[0]
    key = jrandom.split(key, batch_size)
    loss = jax.vmap(lambda x, y, key: model.forward(x, y, key=key)[1])(
        inputs, labels, key=key
    )
    return jnp.mean(loss)


@eqx.filter_jit
def update_opt_state(model, opt_state, grads):
    grads = jax.tree_util.tree_map(lambda leaf: jnp.mean(leaf, axis=0), grads)
    updates, opt_state = optimizer.update(grads, opt_state, model)
    model = eqx.apply_updates(model, updates)
    return model


def distributed_make_step(model: GPT, x, y, opt_state, key):
    # NOTE: do not `jit` over `pmap` see (https://github.com/google/jax/issues/2926)
    compute_loss_pmap = eqx.filter_pmap(
        lambda x_, y_, k_: eqx.filter_jit(compute_loss)(model, x_, y_, key=k_)
    )
    loss, grads = compute_loss_pmap(x, y, jrandom.split(key, x.shape[0]))
    loss = jnp.mean(loss, axis=0)
    model = update_opt_state(model, opt_state, grads)
    return model, loss, opt_state


while True:
    # (evaluation, sampling and checkpointing at iter 0 cut: scaffolding)
    if distributed:
        batch = get_batch(split="train")
        model, loss, opt_state = distributed_make_step(
            model,
            batch[0],
            batch[1],
            opt_state,
            key=jrandom.fold_in(train_key, iter_num),
        )

    iter_num += 1

    if iter_num % log_interval == 0:
        lossf = loss.item()
        print(f"iter {iter_num} \t loss: {lossf:.4f}")

    if iter_num > max_iters:
        break

_report({"jit(_fun)"}, iter_num)  # scaffolding: pmap compiles report fun_name "_fun" on jax 0.10.2
