# source: https://github.com/abdulfatir/learn-jax/blob/3092e50bdc54cb7184ef32a681e52da7ab98c964/notebooks/vae.ipynb
# expect: none
# runtime: COMPILES 2 CALLS 20
# why: the MNIST DataLoader keeps drop_last=False, but 60000 images divide evenly into batches of 32, so every batch has the same shape and value_and_grad of the jitted loss compiles only on the first step.
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




# cell 1
import torch
import numpy as np
from torchvision import datasets, transforms
from torchvision.utils import make_grid
from PIL import Image


class _MNIST(torch.utils.data.Dataset):  # scaffolding: datasets.MNIST needs a download; 320 random 28x28 grey PIL images (a multiple of batch_size=32, like the real 60000)
    def __init__(self, root, train=True, download=False, transform=None):  # scaffolding
        self.transform = transform  # scaffolding
        self.pixels = np.random.RandomState(0).randint(0, 256, size=(320, 28, 28), dtype=np.uint8)  # scaffolding

    def __len__(self):  # scaffolding
        return len(self.pixels)  # scaffolding

    def __getitem__(self, idx):  # scaffolding
        return self.transform(Image.fromarray(self.pixels[idx])), 0  # scaffolding


datasets.MNIST = _MNIST  # scaffolding

dataloader = torch.utils.data.DataLoader(
    datasets.MNIST(
        "./datasets",
        train=True,
        download=True,
        transform=transforms.ToTensor(),
    ),
    batch_size=32,
    shuffle=True,
)
# cell 2
from typing import Any
import jax
import jax.numpy as jnp
import jax.random as jrand
import flax.linen as nn
import optax
# import distrax  # scaffolding: distrax not installed; a minimal Normal below


class _Normal:  # scaffolding: distrax.Normal with log_prob only
    def __init__(self, loc, scale):  # scaffolding
        self.loc, self.scale = loc, scale  # scaffolding

    def log_prob(self, x):  # scaffolding
        z = (x - self.loc) / self.scale  # scaffolding
        return -0.5 * z ** 2 - jnp.log(self.scale) - 0.5 * jnp.log(2 * jnp.pi)  # scaffolding


class distrax:  # scaffolding
    Normal = _Normal  # scaffolding
from tqdm.auto import tqdm

class Encoder(nn.Module):
    data_dim: int
    latent_dim: int

    @nn.compact
    def __call__(self, x) -> Any:
        h = nn.Sequential([nn.Dense(512), nn.relu, nn.Dense(256), nn.relu])(x)
        mu = nn.Dense(self.latent_dim)(h)
        log_var = nn.Dense(self.latent_dim)(h)
        return mu, log_var


class Decoder(nn.Module):
    data_dim: int
    latent_dim: int

    @nn.compact
    def __call__(self, x) -> Any:
        h = nn.Sequential(
            [nn.Dense(256), nn.relu, nn.Dense(512), nn.relu, nn.Dense(self.data_dim)]
        )(x.reshape((x.shape[0], self.latent_dim)))
        return h


class VAE(nn.Module):
    data_dim: int
    latent_dim: int

    def setup(self) -> None:
        self.encoder = Encoder(data_dim=self.data_dim, latent_dim=self.latent_dim)
        self.decoder = Decoder(data_dim=self.data_dim, latent_dim=self.latent_dim)
        self.prior = distrax.Normal(0.0, 1.0)

    def reparameterize(self, mu, logvar, key):
        std = jnp.exp(0.5 * logvar)
        eps = jrand.normal(key=key, shape=std.shape, dtype=std.dtype)
        return mu + eps * std

    def __call__(self, x, key) -> Any:
        mu, logvar = self.encoder(x.reshape((x.shape[0], 784)))
        z = self.reparameterize(mu, logvar, key)
        q0 = distrax.Normal(loc=mu, scale=jnp.exp(0.5 * logvar))
        log_prior_z = self.prior.log_prob(z).sum(-1)
        log_q_z = q0.log_prob(z).sum(-1)
        return self.decoder(z), log_q_z - log_prior_z
# cell 3
# Create and split an RNG Key
key, subkey = jrand.split(jrand.PRNGKey(0))

# Create VAE model
model = VAE(data_dim=784, latent_dim=20)

# Initialize model
vae_params = model.init(key, jnp.ones((32, 1, 28, 28)), subkey)

# Create optimizer and initialize optimizer state
tx = optax.adam(learning_rate=1e-3)
opt_state = tx.init(vae_params)
# cell 4
# Create a loss function and its jitted version
def loss(params, x, key):
    x_logits, reg = model.apply(params, x, key)
    loss = (
        optax.sigmoid_binary_cross_entropy(logits=x_logits, labels=x.reshape(x_logits.shape)).sum() + reg.sum()
    ) / x_logits.shape[0]
    return loss

@jax.jit
def jitted_loss(params, x, key):
    return loss(params, x, key)

# Create a wrapper that computes the loss and its gradient
loss_grad_fn = jax.value_and_grad(loss)
jitted_loss_grad_fn = jax.value_and_grad(jitted_loss)
# cell 5
n_epochs = 2  # scaffolding: 10 -> 2 epochs

for i in tqdm(range(n_epochs)):
    pbar = tqdm(dataloader, leave=False)
    for x_batch, _ in pbar:
        key, subkey = jrand.split(key)

        # Get a batch of data
        x_batch = jnp.asarray(x_batch)

        # Compute loss and grads
        # NOTE: try using the loss_grad_fn here to notice speedup provided by jit
        loss_val, grads = jitted_loss_grad_fn(vae_params, x_batch, key)

        # Get param updates from optimizer
        updates, opt_state = tx.update(grads, opt_state)

        # Apply updates to model params
        vae_params = optax.apply_updates(vae_params, updates)
        
        pbar.set_description(f"Loss: {loss_val:.2f}")
# cell 6
# Create a function to draw samples from the model
# NOTE: Functions outside the model must take the model object
# as one of their arguments
def sample_fn(model, code):
    return nn.sigmoid(model.decoder(code))

# Sample latent vectors from N(0, 1)
key, subkey = jrand.split(key)
code = jrand.normal(subkey, shape=(64, 20))

# Draw samples by calling the sample_fn we just defined
samples = model.apply(vae_params, code, method=sample_fn).reshape(64, 1, 28, 28)

# Convert to image
img_arr = make_grid(torch.from_numpy(np.array(samples * 255).astype(jnp.uint8))).numpy()
Image.fromarray(np.transpose(img_arr, (1, 2, 0)))
print([n for n in _COMPILED if "jitted_loss" in n])  # scaffolding
# cell 7

_report({"jit(jitted_loss)"}, n_epochs * len(dataloader))  # scaffolding: value_and_grad of the jitted loss once per batch
