# source: https://github.com/dirmeier/sbijax/commit/af1ae164821519226c18e451f42bf574dce6fd14
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: After the refactor the per-batch loss_fn is a plain function built once per fit; train_loop jits only step (compiled once) and evaluates the validation loss with the same un-jitted loss_fn, so nothing is re-compiled per epoch.

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
import dataclasses
import math

import jax
import numpy as np
import optax
from absl import logging
from jax import numpy as jnp
from jax import random as jr
from tqdm import tqdm


# --- sbijax/_src/util/early_stopping.py (docstrings trimmed) ---
@dataclasses.dataclass
class EarlyStopping:
  """Early stopping of neural network training."""

  min_delta: float = 0
  patience: int = 0
  best_metric: float = float("inf")
  patience_count: int = 0
  should_stop: bool = False

  def update(self, metric):
    if (
      math.isinf(self.best_metric) or self.best_metric - metric > self.min_delta
    ):
      self.best_metric = metric
      self.patience_count = 0
      return True, self
    should_stop = self.patience_count >= self.patience or self.should_stop
    self.should_stop = should_stop
    self.patience_count = self.patience_count + 1
    return False, self


class DataLoader:  # sbijax/_src/util/dataloader.py
  def __init__(self, itr, num_samples):
    self._itr = itr
    self.num_samples = num_samples

  def __iter__(self):
    """Iterate over the data set."""
    yield from self._itr


class _GaussianModel:  # scaffolding: stands in for the haiku-transformed density estimator (method="log_prob" only)
  def init(self, rng_key, method, y, x):
    return {"w": 0.01 * jr.normal(rng_key, (x.shape[-1], y.shape[-1])), "log_s": jnp.zeros(y.shape[-1])}

  def apply(self, params, rng, method, y, x):
    mu = x @ params["w"]
    z = (y - mu) * jnp.exp(-params["log_s"])
    return jnp.sum(-0.5 * z ** 2 - params["log_s"] - 0.5 * jnp.log(2 * jnp.pi), -1)


# --- sbijax/_src/util/train.py at af1ae16 (docstrings trimmed) ---
def _weighted_mean(per_batch_fn, itr):
  total = 0.0
  for batch in itr:
    total += per_batch_fn(batch) * (batch["y"].shape[0] / itr.num_samples)
  return total


def train_loop(  # noqa: PLR0913
  rng_key,
  *,
  params,
  optimizer,
  loss_fn,
  validation_loss_fn,
  train_iter,
  val_iter,
  n_iter,
  n_early_stopping_patience,
  n_early_stopping_delta=1e-3,
):
  state = optimizer.init(params)

  @jax.jit
  def step(params, rng, state, **batch):
    loss, grads = jax.value_and_grad(loss_fn)(params, rng, **batch)
    updates, new_state = optimizer.update(grads, state, params)
    new_params = optax.apply_updates(params, updates)
    return loss, new_params, new_state

  losses = np.zeros([n_iter, 2])
  early_stop = EarlyStopping(n_early_stopping_delta, n_early_stopping_patience)
  best_params, best_loss = None, np.inf
  logging.info("training model")
  i = 0
  for i in tqdm(range(n_iter), disable=True):  # (disable=True added)
    train_loss = 0.0
    rng_key = jr.fold_in(rng_key, i)
    for batch in train_iter:
      train_key, rng_key = jr.split(rng_key)
      batch_loss, params, state = step(params, train_key, state, **batch)
      train_loss += batch_loss * (batch["y"].shape[0] / train_iter.num_samples)
    val_key, rng_key = jr.split(rng_key)
    validation_loss = _weighted_mean(
      lambda batch, params=params, val_key=val_key: validation_loss_fn(
        params, val_key, **batch
      ),
      val_iter,
    )
    losses[i] = jnp.array([train_loss, validation_loss])

    _, early_stop = early_stop.update(validation_loss)
    if early_stop.should_stop:
      logging.info("early stopping criterion found")
      break
    if validation_loss < best_loss:
      best_loss = validation_loss
      best_params = params.copy()

  stacked_losses = jnp.vstack(losses)[: (i + 1), :]
  return best_params, stacked_losses


# ruff: noqa: PLR0913
class NLE:  # (NE base class, fit(), MCMC sampling and simulation methods cut)
  def __init__(self):  # scaffolding
    self.model = _GaussianModel()

  # pylint: disable=arguments-differ
  def _fit_model_single_round(
    self,
    seed,
    train_iter,
    val_iter,
    optimizer,
    n_iter,
    n_early_stopping_patience,
  ):
    init_key, seed = jr.split(seed)
    params = self._init_params(init_key, **next(iter(train_iter)))

    def loss_fn(params, rng, **batch):  # noqa: ARG001
      lp = self.model.apply(
        params,
        rng=None,
        method="log_prob",
        y=batch["y"],
        x=batch["theta"],
      )
      return -jnp.mean(lp)

    return train_loop(
      seed,
      params=params,
      optimizer=optimizer,
      loss_fn=loss_fn,
      validation_loss_fn=loss_fn,
      train_iter=train_iter,
      val_iter=val_iter,
      n_iter=n_iter,
      n_early_stopping_patience=n_early_stopping_patience,
    )

  def _init_params(self, rng_key, **init_data):
    params = self.model.init(
      rng_key, method="log_prob", y=init_data["y"], x=init_data["theta"]
    )
    return params


rng = np.random.default_rng(0)  # scaffolding: 4 train and 2 validation batches of 32 (theta, y)
def _batches(n):  # scaffolding
  out = []
  for _ in range(n):
    theta = rng.normal(size=(32, 2)).astype(np.float32)
    out.append({"y": (theta @ np.array([[1.0, 0.5], [-0.3, 2.0]], np.float32) + 0.1 * rng.normal(size=(32, 2))).astype(np.float32), "theta": theta})
  return out
train_iter = DataLoader(_batches(4), 128)  # scaffolding
val_iter = DataLoader(_batches(2), 64)  # scaffolding
n_iter = 4  # scaffolding: 4 epochs
params, losses = NLE()._fit_model_single_round(jr.PRNGKey(0), train_iter, val_iter, optax.adam(1e-2), n_iter, 10)  # scaffolding
_report({"jit(step)", "jit(loss_fn)"}, n_iter)  # scaffolding: calls = epochs
