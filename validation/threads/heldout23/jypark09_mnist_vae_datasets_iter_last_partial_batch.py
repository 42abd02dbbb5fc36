# source: https://github.com/JYPark09/jax-study/blob/881b5aeeefcc9b7630a81c9efaf843eff5591dc1/mnist_vae/main.py
# expect: shape-churn at line 171
# runtime: COMPILES 4 CALLS 12
# why: ds.iter(batch_size=512) keeps the partial last batch, so the jitted preprocess and apply_model each compile a second time for it; the jax.jit(nn.apply(impl, ...)) built inside sample_images runs once and compiles once.
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
import jax.numpy as jnp
import numpy as np

import flax.linen as nn
from flax.training import train_state
import optax

import numpy as _np  # scaffolding


class _Split:  # scaffolding: stand-in for a Hugging Face datasets split with_format("jax") (datasets not installed)
    def __init__(self, n):  # scaffolding
        r = _np.random.default_rng(0)  # scaffolding
        self.image = jnp.asarray(r.integers(0, 255, (n, 28, 28)), dtype=jnp.uint8)  # scaffolding
    def shuffle(self):  # scaffolding
        return self  # scaffolding
    def iter(self, batch_size, drop_last_batch=False):  # scaffolding: the datasets default keeps the partial last batch
        n = self.image.shape[0]  # scaffolding
        for i in range(0, n, batch_size):  # scaffolding
            if drop_last_batch and i + batch_size > n:  # scaffolding
                return  # scaffolding
            yield {"image": self.image[i:i + batch_size]}  # scaffolding


def load_dataset(name):  # scaffolding
    return {"train": _Split(1200)}  # scaffolding: 1200 images instead of MNIST's 60000 (both leave a partial last batch of 512)


class Image:  # scaffolding: PIL not needed, images are not saved
    @staticmethod
    def fromarray(a):  # scaffolding
        return types.SimpleNamespace(save=lambda path: None)  # scaffolding


import types  # scaffolding


def reparameterize(mu: jnp.ndarray, logvar: jnp.ndarray, rng):
    std = jnp.exp(0.5 * logvar)
    eps = jax.random.normal(rng, mu.shape)
    return mu + eps * std


class Encoder(nn.Module):
    n_latent: int

    @nn.compact
    def __call__(self, x: jnp.ndarray):
        x = nn.Dense(512)(x)
        x = nn.silu(x)

        mu_x = nn.Dense(self.n_latent)(x)
        logvar_x = nn.Dense(self.n_latent)(x)

        return mu_x, logvar_x


class Decoder(nn.Module):
    n_latent: int

    @nn.compact
    def __call__(self, z: jnp.ndarray):
        z = nn.Dense(512)(z)
        z = nn.silu(z)
        return nn.Dense(28 * 28)(z) 


class VAE(nn.Module):
    n_latent: int

    def setup(self):
        self.encoder = Encoder(n_latent=self.n_latent)
        self.decoder = Decoder(n_latent=self.n_latent)

    def __call__(self, x: jnp.ndarray, rng):
        mu_x, logvar_x = self.encoder(x)
        z = reparameterize(mu_x, logvar_x, rng)

        recon = self.decode(z)
        return recon, mu_x, logvar_x

    def decode(self, z: jnp.ndarray):
        recon = self.decoder(z)
        recon = jnp.tanh(recon)
        return recon


@jax.jit
def apply_model(state: train_state.TrainState,
                x: jnp.ndarray,
                rng):
    def loss_fn(params):
        recon, mu, logvar = state.apply_fn({ "params": params }, x, rng)

        recon_loss = jnp.mean(jnp.sum((x - recon) ** 2, axis=-1))
        kl_loss = jnp.mean(-0.5 * jnp.sum(1 + logvar - mu ** 2 - jnp.exp(logvar), axis=-1))
        loss = recon_loss + 0.1 * kl_loss

        return loss, (recon_loss, kl_loss)

    grad_fn = jax.value_and_grad(loss_fn, has_aux=True)
    (_, (recon_loss, kl_loss)), grads = grad_fn(state.params)

    return grads, recon_loss, kl_loss


@jax.jit
def update_model(state: train_state.TrainState, grads):
    return state.apply_gradients(grads=grads)


def create_train_state(rng):
    vae = VAE(n_latent=20)
    params = vae.init(rng, jnp.ones([1, 28 * 28]), rng=jax.random.PRNGKey(0))["params"]
    tx = optax.adamw(learning_rate=1e-3, weight_decay=1e-4)
    return train_state.TrainState.create(
        apply_fn=vae.apply,
        params=params,
        tx=tx
    )


@jax.jit
def preprocess(x: jnp.ndarray) -> jnp.ndarray:
    x = x.astype(jnp.float32) / 255. - 0.5
    x = x.reshape((-1, 28 * 28))
    return x


@jax.jit
def postprocess(x: jnp.ndarray) -> jnp.ndarray:
    x = x.reshape((-1, 28, 28))
    x = (x + 0.5) * 255.
    x = jnp.clip(x, 0, 255)
    x = x.astype(jnp.uint8)
    return x


def train_epoch(state: train_state.TrainState,
                ds, batch_size: int, rng):
    recon_losses = []
    kl_losses = []

    ds = ds.shuffle()
    for batch in ds.iter(batch_size=batch_size):
        x = batch["image"]
        x = preprocess(x)

        rng, subrng = jax.random.split(rng)
        grads, recon_loss, kl_loss = apply_model(state, x, rng=subrng)

        state = update_model(state, grads)

        recon_losses.append(recon_loss)
        kl_losses.append(kl_loss)

    recon_loss = np.mean(recon_loss)
    kl_loss = np.mean(kl_loss)

    return state, recon_loss, kl_loss


def sample_images(num_images: int, state: train_state.TrainState, rng):
    def impl(vae):
        z = jax.random.normal(rng, (num_images, 20))
        x = vae.decode(z)
        x = postprocess(x)
        return x

    fn = jax.jit(nn.apply(impl, VAE(n_latent=20)))
    x = fn({ "params": state.params })
    return x


def main():
    rng = jax.random.PRNGKey(42)
    init_rng, train_rng, eval_rng = jax.random.split(rng, 3)

    state = create_train_state(init_rng)

    ds = load_dataset("mnist")
    # ds = ds.with_format("jax")  # scaffolding: the stand-in already holds jax arrays

    for epoch in range(2):  # scaffolding: 50 in the repository
        state, recon_loss, kl_loss = train_epoch(state, ds["train"], batch_size=512, rng=train_rng)
        print(f"Epoch {epoch} | Recon Loss: {recon_loss} | KL Loss: {kl_loss}")

    images = sample_images(10, state, rng=eval_rng)

    for i in range(images.shape[0]):
        image = jnp.asarray(images[i])
        image = np.array(image)
        Image.fromarray(image).save(f"images/{i}.png")


if __name__ == "__main__":
    main()
    _report({"jit(apply_model)", "jit(preprocess)"}, 2 * 2 * 3)  # scaffolding: 2 functions x 2 epochs x 3 batches
