# source: https://github.com/Shayan-P/diffusion-jax/blob/51ce9579eb50344b3b676d515510a6a8c52e1c78/configs/simple_2d.py
# expect: none
# runtime: COMPILES 2 CALLS 22
# why: train_step marks the flax module as static and sampling marks data_shape static, but both are the same hashable values on every call, and the loader uses drop_last=True, so train_step compiles once for 20 steps and sampling once for 2 epochs.
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



import jax
import flax.linen as nn
import jax.numpy as jnp
import typing as tp
import logging
import numpy as np
import optax

# from unet import Unet, ConditionalUnet  # scaffolding: the UNet models are not used by simple_2d
from tqdm import tqdm
from functools import partial
from torch.utils import data
from jax.tree_util import tree_map
from dataclasses import dataclass, field
from pathlib import Path
from flax.training.train_state import TrainState
from types import SimpleNamespace  # scaffolding

plt = SimpleNamespace(figure=lambda **kw: None, scatter=lambda *a, **kw: None, tight_layout=lambda: None,  # scaffolding: matplotlib is not installed; plotting is a no-op
                      savefig=lambda *a, **kw: None, close=lambda *a: None, plot=lambda *a: None)  # scaffolding


# ---- model.py ----
class Scheduler:
    def __init__(self, num_timesteps, beta_start, beta_end):
        self.num_timesteps = num_timesteps
        self.beta_start = beta_start
        self.beta_end = beta_end

        self.betas = jnp.linspace(self.beta_start, self.beta_end, self.num_timesteps)
        self.alphas = 1 - self.betas
        self.alpha_bars = jnp.cumprod(self.alphas)
        self.sqrt_alpha_bars = jnp.sqrt(self.alpha_bars)
        self.sqrt_comp_alpha_bars = jnp.sqrt(1 - self.alpha_bars)

        if self.sqrt_alpha_bars[-1] > 1e-3:
            logging.warning("Final value of sqrt_alpha_bars is too high: %f", self.sqrt_alpha_bars[-1])


class MLP(nn.Module):
    dims: tp.Tuple[int]

    # todo make sure this works...
    @nn.compact
    def __call__(self, x, y, t, training: bool):
        for dim in self.dims:
            x = jnp.concatenate([x, y, t], axis=-1) # late fusion?
            x = nn.Dense(dim)(x)
            x = nn.silu(x)
            x = nn.BatchNorm(use_running_average=not training)(x)
        x = nn.Dense(self.dims[-1])(x)
        return x


class DDPMConditionalWithMLP(nn.Module):
    scheduler: Scheduler
    dims: tp.Tuple[int]
    timestep_num: int = 1000
    timestep_dim: int = 256

    def setup(self):
        self.mlp = MLP(
            dims=self.dims
        )
        self.time_emb = nn.Embed(self.timestep_num, self.timestep_dim)
    
    def __call__(self, x, y, t, noise, training: bool=True):
        x_t = self.forward_diffusion(x, t, noise)
        inp = jnp.concatenate([x_t, y], axis=-1)
        noise_pred = self.mlp(x_t, y, self.time_emb(t), training=training)
        return noise_pred

    def forward_diffusion(self, x, t, noise):
        n, c = x.shape
        assert x.shape == noise.shape
        assert x.shape[0] == t.shape[0]
        assert len(t.shape) == 1

        alpha1 = jnp.take(self.scheduler.sqrt_alpha_bars, t)[:, None]
        alpha2 = jnp.take(self.scheduler.sqrt_comp_alpha_bars, t)[:, None]
        xt = alpha1 * x + alpha2 * noise
        return xt

    def reverse_diffusion(self, x_t, y, t, noise):
        n, c = x_t.shape
        assert x_t.shape[0] == t.shape[0]
        assert noise.shape == x_t.shape
        assert len(t.shape) == 1

        alpha1 = jnp.sqrt(1/self.scheduler.alphas.take(t))[:, None]
        alpha2 = ((1 - self.scheduler.alphas.take(t)) / self.scheduler.sqrt_comp_alpha_bars.take(t))[:, None]
        noise_pred = self.mlp(x_t, y, self.time_emb(t), training=False)
        mu = alpha1 * (x_t - alpha2 * noise_pred)

        alpha_bars_prev = self.scheduler.alpha_bars.take(t-1)
        alpha_bars = self.scheduler.alpha_bars.take(t)
        sigma_t = jnp.sqrt(
            self.scheduler.betas.take(t) * alpha_bars_prev / alpha_bars
        )[:, None]
        cond = jnp.where(t > 0, 1.0, 0.0)[:, None]
        return mu + sigma_t * noise * cond
    
    def sampling(self, rng, y, data_shape):
        n_samples, _ = y.shape
        shape = (n_samples, *data_shape)

        def scan_fn(carry, t):
            rng, x_t, y = carry
            rng, step_rng = jax.random.split(rng)
            noise = jax.random.normal(step_rng, shape)
            t = jnp.repeat(t, n_samples)
            x_new = self.reverse_diffusion(x_t, y, t, noise)
            return (rng, x_new, y), None
        ts = jnp.arange(self.timestep_num)[::-1]
        key, rng = jax.random.split(rng)
        x_t = jax.random.normal(key, shape)
        (_, x_final, _), _ = jax.lax.scan(scan_fn, (rng, x_t, y), ts)
        return x_final

    def train_step(self, state, rng, x, y):
        n, c = x.shape
        t = jax.random.randint(rng, (n,), 0, self.timestep_num)
        noise = jax.random.normal(rng, x.shape)
        
        def loss_fn(params):
            noise_pred, updates = state.apply_fn(params, x, y, t, noise, mutable='batch_stats')
            return jnp.mean((noise - noise_pred) ** 2), updates
        
        value_grad = jax.value_and_grad(loss_fn, has_aux=True)
        (loss, updates), grad = value_grad(state.params)
        state.params.update(updates)
        state = state.apply_gradients(grads=grad)
        return state, loss


# ---- dataset.py ----
def numpy_collate(batch):
  return tree_map(np.asarray, data.default_collate(batch))

class NumpyLoader(data.DataLoader):
  def __init__(self, dataset, batch_size=1,
                shuffle=False, sampler=None,
                batch_sampler=None, num_workers=0,
                pin_memory=False, drop_last=False,
                timeout=0, worker_init_fn=None):
    super(self.__class__, self).__init__(dataset,
        batch_size=batch_size,
        shuffle=shuffle,
        sampler=sampler,
        batch_sampler=batch_sampler,
        num_workers=num_workers,
        collate_fn=numpy_collate,
        pin_memory=pin_memory,
        drop_last=drop_last,
        timeout=timeout,
        worker_init_fn=worker_init_fn)


def get_circle_dataset():
  N = 1360  # scaffolding: 50000 in the repo; 1360 = 10*128 + 80 keeps 50000 % 128 == 80
  theta = np.linspace(0, 2 * np.pi, N)
  x = np.cos(theta)
  y = np.sin(theta)
  return [
     (np.array([x]), np.array([y]))
     for x, y in zip(x, y)
  ]


# ---- configs/base_conf.py (the parts simple_2d uses) ----
@dataclass
class OptimizerConfig:
  start_lr: float = 1e-3
  end_lr: float = 1e-4
  warmup_steps: int = 1000
  decay_steps: int = 5000

  def get_lr_schedule(self):
    return optax.warmup_cosine_decay_schedule(
      init_value=self.start_lr,
      peak_value=self.start_lr,
      warmup_steps=self.warmup_steps,
      decay_steps=self.decay_steps,
      end_value=self.end_lr
    )

  def get_optimizer(self):
    lr_scheduler = self.get_lr_schedule()
    optimizer = optax.adam(lr_scheduler)
    return optimizer


@dataclass
class DatasetConfig:
  name: str = "mnist"
  train_batch_size: int = 128

  def get_loader(self):
    if self.name == 'circle':  # scaffolding: the mnist and gaussian_points branches are cut
      dataset = get_circle_dataset()
    else:
        raise ValueError(f"Unknown dataset {self.name}")
    # enforce the same batch size for training and testing
    train_loader = NumpyLoader(dataset, batch_size=self.train_batch_size, shuffle=True, drop_last=True)
    return train_loader


class AbstractTrainer:
    pass


# ---- configs/simple_2d.py ----
@partial(jax.jit, static_argnames=("data_shape",))
def sampling(state, rng, y, data_shape):
    return state.apply_fn(state.params, method=DDPMConditionalWithMLP.sampling, y=y, data_shape=data_shape, rng=rng)


@partial(jax.jit, static_argnames=("model",))
def train_step(model, state, rng, x, y):
    return model.train_step(state=state, rng=rng, x=x, y=y)


class Trainer(AbstractTrainer):
  def __init__(self, model, x_shape, log_path: Path, log_sample_count: int):
    super().__init__()
    self.model = model
    self.log_path = log_path
    self.x_shape = x_shape
    self.log_sample_count = log_sample_count

  def train_batch(self, rng, state, batch, epoch):
    (x, y) = batch
    x = jnp.array(x, dtype=jnp.float32)
    y = jnp.array(y, dtype=jnp.float32)
    rng, key = jax.random.split(rng)
    state, loss = train_step(self.model, state, key, x, y=y)
    loss = loss.item()
    return state, loss

  def end_of_epoch_callback(self, rng, state, epoch):
    gen_count = self.log_sample_count
    # this is assuming y is 1D and between 0, 1
    y = jnp.linspace(-1, 1, gen_count)[:, None]
    x = sampling(state, rng, y=y, data_shape=self.x_shape)

    assert x.shape[0] == gen_count
    assert x.shape[1] == 1
    assert len(x.shape) == 2
    x = x.reshape(-1)
    y = y.reshape(-1)
    pts = jnp.stack([x, y], axis=1)

    fig = plt.figure(figsize=(10, 10))
    plt.scatter(pts[:, 0], pts[:, 1]) # later do heat map
    plt.tight_layout()
    plt.savefig(self.log_path.joinpath(f'samples_epoch_{epoch}.png'))
    plt.close(fig)


@dataclass
class ModelConfig:
  timesteps: int = 100  # scaffolding: 1000 in the repo

  dims: tp.Tuple[int] = (64, 128, 256, 1)
  timestep_num: int = 100  # scaffolding: 1000 in the repo
  timestep_dim: int = 128
  # todo we are doing early fusion here... chances are the initial input gets lost in the large timestep dim

  beta_start: float = 0.00085
  beta_end: float = 0.12

  log_sample_count: int = 50  # scaffolding: 1000 in the repo

  def get_model(self):
    return DDPMConditionalWithMLP(
      scheduler=Scheduler(num_timesteps=self.timesteps, beta_start=self.beta_start, beta_end=self.beta_end),
      dims=self.dims,
      timestep_num=self.timestep_num,
      timestep_dim=self.timestep_dim,
    )

  def get_trainer(self, log_path):
    return Trainer(self.get_model(), self.x_shape, log_path, log_sample_count=self.log_sample_count)

  def init(self, model, rng, data0):
    x0, y0 = data0
    self.x_shape = x0.shape[1:]
    t0 = jnp.ones((x0.shape[0],), dtype=jnp.int32)
    noise0 = jax.random.normal(rng, x0.shape)
    return model.init(rng, x0, y0, t0, noise0)


# ---- train.py main(), without the orbax checkpointing, absl flags and compilation cache setup ----
def main(_):
    config = SimpleNamespace(model=ModelConfig(), dataset=DatasetConfig(name='circle'), optimizer=OptimizerConfig(),  # scaffolding: get_config() of simple_2d
                             seed=42, epochs=2)  # scaffolding: 100 epochs in the repo

    # rng
    rng = jax.random.PRNGKey(config.seed)
    
    # get model
    model = config.model.get_model()

    # data
    train_loader = config.dataset.get_loader()

    # optimizer
    lr_scheduler = config.optimizer.get_lr_schedule()
    optimizer = config.optimizer.get_optimizer()

    # log path
    log_path = Path("logs")  # scaffolding: config.get_log_path(); nothing is written (plt is a no-op)

    # init model
    data0 = next(iter(train_loader))
    params = config.model.init(model, rng, data0)

    state = TrainState.create(
        apply_fn=model.apply,
        params=params,
        tx=optimizer)
    del params

    losses = []  # scaffolding: from the (empty) checkpoint

    # get trainer
    trainer = config.model.get_trainer(log_path)

    # start training
    print("Training...")
    for epoch in range(0, config.epochs):  # scaffolding: range(checkpoint.epoch + 1, checkpoint.epoch + 1 + config.epochs) with no checkpoint
        print("Epoch: ", epoch)
        with tqdm(train_loader, disable=True) as pbar:  # scaffolding: disable=True keeps stdout short
            for i, batch in enumerate(pbar):
                key, rng = jax.random.split(rng)
                state, loss = trainer.train_batch(key, state, batch, epoch)
                losses.append(loss)
                if i % 10 == 0:
                    pbar.set_description(f"Loss: {loss:.4f}, LR: {lr_scheduler(state.step):.6f}")

        # log
        key, rng = jax.random.split(rng)
        trainer.end_of_epoch_callback(key, state, epoch)

    plt.plot(losses)
    plt.savefig(log_path.joinpath('losses.png'))
    print("Training finished")
    return len(losses)  # scaffolding


n_steps = main(None)  # scaffolding
print("train steps:", n_steps)  # scaffolding
_report({"jit(train_step)", "jit(sampling)"}, n_steps + 2)  # scaffolding: 20 train steps (10 full batches per epoch, the last 80 dropped) + 2 sampling calls
