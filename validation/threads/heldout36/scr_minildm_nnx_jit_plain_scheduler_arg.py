# source: https://github.com/thealepo/latent-diffusion-jax/blob/23952020bcb44327246ec677b59aa5307ca9a1e3/src/train.py
# expect: trace-time-error at line 120
# runtime: ERROR TypeError
# why: The nnx.jit train_step takes the DDPMScheduler, a plain Python class (not a pytree, not an nnx.Module) holding jnp arrays, as an ordinary argument, so the first call raises TypeError ('Error interpreting argument ... as an abstract array') before any step runs.

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
from typing import Callable, List

import jax
import jax.numpy as jnp
import flax.nnx as nnx
import numpy as np
import optax  # scaffolding


def rearrange(x, pattern):  # scaffolding: einops is not installed; only 'b -> b 1 1 1' is used
    return x.reshape(-1, 1, 1, 1)


# --- src/scheduler.py (reverse-process methods cut) ---
class DDPMScheduler:
    '''
    Linear-scheduled DDPM noise scheduler.
    '''
    def __init__(self , num_timesteps: int = 1000 , beta_start: float = 0.00085 , beta_end: float = 0.012) -> None:
        self.num_timesteps = num_timesteps
        self.betas = jnp.linspace(beta_start , beta_end , num_timesteps)
        self.alphas = 1.0 - self.betas
        self.alpha_bar = jnp.cumprod(self.alphas , axis=0)
        self.alpha_bar_prev = jnp.concatenate([jnp.array([1.0]) , self.alpha_bar[:-1]])
        self.sqrt_alpha_bar = jnp.sqrt(self.alpha_bar)
        self.sqrt_one_minus_alpha_bar = jnp.sqrt(1.0 - self.alpha_bar)
        self.sqrt_recip_alpha = jnp.sqrt(1.0 / self.alphas)
        self.posterior_variance = (
            self.betas * (1.0 - self.alpha_bar_prev) / (1.0 - self.alpha_bar)
        )

    def add_noise(self , x_0: jnp.ndarray , noise: jnp.ndarray , t: jnp.ndarray) -> jnp.ndarray:
        sqrt_alpha_bar = self.sqrt_alpha_bar[t]
        sqrt_one_minus_alpha_bar = self.sqrt_one_minus_alpha_bar[t]
        sqrt_alpha_bar = rearrange(sqrt_alpha_bar , 'b -> b 1 1 1')
        sqrt_one_minus_alpha_bar = rearrange(sqrt_one_minus_alpha_bar , 'b -> b 1 1 1')
        return sqrt_alpha_bar * x_0 + sqrt_one_minus_alpha_bar * noise


class UNet(nnx.Module):  # scaffolding: stand-in for src/unet.py
    def __init__(self, in_channels: int, *, rngs: nnx.Rngs) -> None:
        self.conv = nnx.Conv(in_channels, in_channels, kernel_size=(3, 3), padding='SAME', rngs=rngs)
        self.ctx = nnx.Linear(8, in_channels, rngs=rngs)

    def __call__(self, x, t, ctx):
        return self.conv(x) + self.ctx(ctx.mean(axis=1))[:, None, None, :] + t[:, None, None, None] * 1e-3


# --- src/train.py ---
# Single training step
@nnx.jit
def train_step(unet: UNet , optimizer: nnx.Optimizer , scheduler: DDPMScheduler , latents: jnp.ndarray , clip_embeddings: jnp.ndarray , cfg_dropout: float , rng: jax.Array) -> jnp.ndarray:
    '''
    Executes a single gradient update step.
    '''
    B = latents.shape[0]
    k1 , k2 , k3 = jax.random.split(rng , 3)

    # Sampling random noise and timesteps
    noise = jax.random.normal(k1 , latents.shape)
    timesteps = jax.random.randint(k2 , (B,) , 0 , scheduler.num_timesteps)
    x_t = scheduler.add_noise(latents , noise , timesteps)

    # CFG Dropout
    dropout_mask = jax.random.uniform(k3 , (B,1,1,1)) < cfg_dropout
    cfg_embeddings = jnp.where(dropout_mask , jnp.zeros_like(clip_embeddings) , clip_embeddings)

    def loss_fn(unet):
        noise_pred = unet(x_t , timesteps , cfg_embeddings)
        return jnp.mean((noise_pred - noise) ** 2)

    loss , grads = jax.value_and_grad(loss_fn)(unet)
    optimizer.update(unet , grads)
    return loss


def train(unet, optimizer, scheduler, dataloader, encode_fn, text_embed_fn, num_epochs: int = 50, cfg_dropout: float = 0.1, start_epoch: int = 0) -> int:
    rng = jax.random.PRNGKey(42)
    n_calls = 0  # scaffolding
    for epoch in range(start_epoch , num_epochs):
        epoch_losses = []

        for _ , (images,captions) in enumerate(dataloader):
            # Splitting rng into three distinct keys
            k1 , k2 , k3 = jax.random.split(rng , 3)

            # Encoding images into latents, strings into embeddings
            latents = encode_fn(jnp.array(images) , k2)
            clip_embeddings = jnp.array(text_embed_fn(captions))

            n_calls += 1  # scaffolding
            loss = train_step(
                unet,
                optimizer,
                scheduler,
                latents,
                clip_embeddings,
                cfg_dropout,
                rng=k3
            )
            loss_value = float(loss)
            epoch_losses.append(loss_value)
        # (wandb logging, sampling and checkpointing cut: scaffolding)
    return n_calls


# scaffolding: 2 batches of 4 random 8x8x4 "latents"; encode_fn / text_embed_fn stand in for the VAE and CLIP
dataloader = [(np.random.rand(4, 8, 8, 4).astype(np.float32), ["a cat"] * 4) for _ in range(2)]
unet = UNet(4, rngs=nnx.Rngs(0))
optimizer = nnx.Optimizer(unet, optax.adamw(1e-4), wrt=nnx.Param)
try:  # scaffolding
    calls = train(unet, optimizer, DDPMScheduler(), dataloader, encode_fn=lambda x, k: x,
                  text_embed_fn=lambda caps: np.zeros((len(caps), 7, 8), np.float32), num_epochs=1)
    _report({"jit(train_step)"}, calls)
except TypeError as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
