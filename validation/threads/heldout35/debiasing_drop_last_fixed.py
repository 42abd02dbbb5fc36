# source: https://github.com/Tetraclormetan/debiasing/commit/59d5df2fb174e28bc5a80e5b1d87905f90981175
# expect: none
# runtime: COMPILES 1 CALLS 6
# why: commit 59d5df2 makes NumpyLoader drop the incomplete last batch (drop_last=True), so every batch has the same shape and train_step_GCE compiles once.

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
import numpy as np
import jax
import jax.numpy as jnp
import optax
import flax.linen as nn  # scaffolding
from flax.training import train_state
from flax.core import FrozenDict
from torch.utils.data import DataLoader


# --- data_utils/dataloaders.py ---
@jax.jit
def collate_with_bias(batch):
  imgs = jax.numpy.stack([el[0] for el in batch ])
  labels = jax.numpy.stack([el[1] for el in batch])
  biases = jax.numpy.stack([el[2] for el in batch])
  return imgs, labels, biases

class NumpyLoader(DataLoader):
  def __init__(self, dataset, batch_size=1,
                shuffle=False, sampler=None,
                batch_sampler=None, num_workers=0,
                pin_memory=False, drop_last=True,
                timeout=0, worker_init_fn=None,
                collate_fn=collate_with_bias):
    super(self.__class__, self).__init__(dataset,
        batch_size=batch_size,
        shuffle=shuffle,
        sampler=sampler,
        batch_sampler=batch_sampler,
        num_workers=num_workers,
        collate_fn=collate_fn,
        pin_memory=pin_memory,
        drop_last=drop_last,
        timeout=timeout,
        worker_init_fn=worker_init_fn)


# --- modeling/train_utils.py ---
class TrainStateWithStats(train_state.TrainState):
        batch_stats: FrozenDict
        # metrics: Metrics  (scaffolding: clu metrics left out)


@jax.jit
def train_step_GCE(state, batch, q=0.7):
  """Train for a single step."""
  images, labels, _ = batch
  def loss_fn(params):
    logits, new_batch_stats = state.apply_fn({"params": params, 'batch_stats': state.batch_stats}, images,
                            train=True, mutable=['batch_stats'])
    logits_max = jnp.max(logits, axis=-1, keepdims=True)
    logits -= jax.lax.stop_gradient(logits_max)
    label_logits = jnp.take_along_axis(logits, labels[..., None], axis=-1)[..., 0]
    normalizers = jnp.sum(jnp.exp(logits), axis=-1)
    log_probs_with_q = q * (label_logits - jnp.log(normalizers))
    loss = (1 - jnp.exp(log_probs_with_q).mean()) / q
    return loss, new_batch_stats
  grad_fn = jax.grad(loss_fn, has_aux=True)
  grads, new_batch_stats = grad_fn(state.params)
  state = state.apply_gradients(grads=grads, batch_stats=new_batch_stats['batch_stats'])
  return state


class SmallNet(nn.Module):  # scaffolding: stands in for the repo's ResNet (same apply signature, BatchNorm)
  @nn.compact
  def __call__(self, x, train: bool):
    x = x.reshape((x.shape[0], -1))
    x = nn.Dense(16)(x)
    x = nn.BatchNorm(use_running_average=not train)(x)
    return nn.Dense(10)(nn.relu(x))


# scaffolding: CIFAR10C in-memory dataset replaced by 100 random (image, label, bias) samples; batch 32
rng = np.random.default_rng(0)
train_inmemory = [(rng.normal(size=(8, 8, 3)).astype(np.float32), np.int32(rng.integers(10)), np.int32(rng.integers(2)))
                  for _ in range(100)]
CONFIG = {"batch_size": 32, "num_epochs": 2}  # scaffolding
model = SmallNet()
variables = model.init(jax.random.PRNGKey(0), jnp.ones((1, 8, 8, 3)), train=False)
state = TrainStateWithStats.create(apply_fn=model.apply, params=variables['params'],
                                   batch_stats=variables['batch_stats'], tx=optax.sgd(0.1))  # scaffolding

# --- first_stage_resnet.py ---
train_loader = NumpyLoader(dataset=train_inmemory, batch_size=CONFIG["batch_size"], num_workers=0, 
                           pin_memory=False)  # scaffolding: sampler=RandomSampler(...) and pin_memory=True dropped

# --- train_utils.train(), training half (scaffolding: compute_metrics/clu and the val loop left out) ---
calls = 0  # scaffolding
for epoch in range(CONFIG['num_epochs']):
    for batch in train_loader:
        state = train_step_GCE(state, batch)
        calls += 1  # scaffolding
_report({"jit(train_step_GCE)"}, calls)
