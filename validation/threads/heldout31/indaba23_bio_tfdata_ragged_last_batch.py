# source: https://github.com/deep-learning-indaba/indaba-pracs-2023/blob/06bb5cea315ae1ee36ba7a8ada243db7d9a4b406/practicals/ML_for_Bio_Indaba_Practical_2023.ipynb
# expect: shape-churn at line 150
# runtime: COMPILES 2 CALLS 6
# why: train_ds.batch(BATCH_SIZE) keeps tf.data's default drop_remainder=False, so the last batch of every epoch is shorter than 128 and the jitted train_step compiles a second time for it.

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
# cell 1 (imports used below; pandas/tensorflow/tfds/matplotlib ones dropped: not installed)
import jax
import jax.numpy as jnp
from jax import grad, jit, vmap

import numpy as np

import flax.linen as nn
import optax

# scaffolding: tensorflow is not installed; a minimal stand-in for the tf.data calls the notebook
# makes (from_tensor_slices, shuffle, batch with tf's default drop_remainder=False, iteration, len)
class _StandInDataset:  # scaffolding
    def __init__(self, tensors, batch_size=None):  # scaffolding
        self._t, self._bs = tensors, batch_size  # scaffolding
    @staticmethod  # scaffolding
    def from_tensor_slices(tensors):  # scaffolding
        return _StandInDataset(tensors)  # scaffolding
    def shuffle(self, buffer_size):  # scaffolding
        n = len(next(iter(self._t.values())))  # scaffolding
        p = np.random.default_rng(0).permutation(n)  # scaffolding
        return _StandInDataset({k: v[p] for k, v in self._t.items()}, self._bs)  # scaffolding
    def batch(self, batch_size, drop_remainder=False):  # scaffolding
        return _StandInDataset(self._t, batch_size)  # scaffolding
    def __len__(self):  # scaffolding
        n = len(next(iter(self._t.values())))  # scaffolding
        return -(-n // self._bs)  # scaffolding
    def __iter__(self):  # scaffolding
        n = len(next(iter(self._t.values())))  # scaffolding
        for i in range(0, n, self._bs):  # scaffolding
            yield {k: v[i:i + self._bs] for k, v in self._t.items()}  # scaffolding
class tf:  # scaffolding
    class data:  # scaffolding
        Dataset = _StandInDataset  # scaffolding

# scaffolding: stand-in for cells 89-107 (UmojaHack antivenom CSV, ESM k-mer embeddings computed with a
# torch protein language model, pandas); 300 training and 70 validation rows of the same structure
_rng = np.random.default_rng(1)  # scaffolding
av_to_idx = {f"av{i}": i for i in range(8)}  # scaffolding
def _rows(n):  # scaffolding
    return {"sequence": _rng.normal(size=(n, 320)).astype(np.float32),  # scaffolding
            "antivenom": _rng.integers(0, 8, size=n),  # scaffolding
            "target": _rng.normal(size=n).astype(np.float32)}  # scaffolding
train_ds = tf.data.Dataset.from_tensor_slices(_rows(300))  # scaffolding
valid_ds = tf.data.Dataset.from_tensor_slices(_rows(70))  # scaffolding
# cell 108
BATCH_SIZE=128

train_ds = train_ds.shuffle(1024)
train_ds = train_ds.batch(BATCH_SIZE)
valid_ds = valid_ds.batch(BATCH_SIZE)
# cell 109
batch = next(iter(train_ds))
batch['sequence'].shape, batch['antivenom'].shape, batch['target'].shape
# cell 111
class Model(nn.Module):
    dim: int = 128
    av_vocab_size: int = 8

    @nn.compact
    def __call__(self, batch):
        x = nn.Embed(self.av_vocab_size, self.dim)(batch['antivenom'])

        x = jnp.concatenate([batch['sequence'], x], axis=1)

        x = nn.Sequential(
            [
                nn.Dense(self.dim*2),
                jax.nn.gelu,
                nn.Dense(self.dim),
                jax.nn.gelu,
                nn.Dense(1),
            ]
        )(x)

        return x
# cell 112
av_model = Model(dim=256, av_vocab_size=len(av_to_idx))
# cell 114
LR = 0.01

init_rng = jax.random.PRNGKey(42)
dummy_batch = jax.tree_util.tree_map(jnp.array, batch)
variables = av_model.init(
  init_rng,
  dummy_batch # <== inputs
)
params = variables["params"]

optimiser = optax.adam(LR)
opt_state = optimiser.init(params)
# cell 117
# @title Answer to code task (Try not to peek until you've given it a good try!')

@jax.jit
def train_step(params, opt_state, batch):
    def loss_fn(params):
        preds = av_model.apply(
            {'params': params},
            batch # <== inputs
        )
        loss = jnp.power(batch['target'] - preds.squeeze(), 2).mean()
        return loss

    loss, grads = jax.value_and_grad(loss_fn)(params)
    updates, opt_state = optimiser.update(grads, opt_state)
    params = optax.apply_updates(params, updates)

    return params, opt_state, loss
# cell 119
from tqdm import tqdm

EPOCHS = 2  # scaffolding: 10 in the notebook
key = jax.random.PRNGKey(42)

for epoch in range(EPOCHS):
    running_loss = None
    pbar = tqdm(enumerate(train_ds), total=len(train_ds))
    for i, batch in pbar:
        batch = jax.tree_util.tree_map(jnp.array, batch)

        params, opt_state, loss = train_step(params, opt_state, batch)

        if running_loss is None:
            running_loss = loss.item()
        else:
            running_loss = 0.99 * running_loss + (1 - 0.99) * loss

        pbar.set_postfix({'loss': running_loss})


    valid_losses = []
    for i, batch in tqdm(enumerate(valid_ds), total=len(valid_ds)):
        batch = jax.tree_util.tree_map(jnp.array, batch)

        preds = av_model.apply(
            {'params': params},
            batch # <== inputs
        )
        loss = jnp.power(batch['target'] - preds, 2).mean()

        valid_losses.append(loss)

    valid_loss = np.mean(valid_losses)

    print(f"[Epoch {epoch}]: Valid loss={valid_loss:.3f}, Train loss={running_loss:.3f}\n")
_report({"jit(train_step)"}, EPOCHS * len(train_ds))  # scaffolding
