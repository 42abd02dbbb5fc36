# source: https://github.com/adambozson/vae-jax/blob/01265ab72d15b716ac3d1911ee50602d9bec82f0/VAE.py
# expect: shape-churn at line 215
# runtime: COMPILES 2 CALLS 6
# why: MNIST.get_batches yields ceil(N/128) batches and the last one is shorter (and ends at len-1), so the jitted SGD_update compiles a second executable for the ragged last batch of every epoch's shape (2 compiles for 6 calls over 2 epochs).
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
import os
import time
from typing import List, Tuple

import jax
import jax.numpy as np
import jax.random as random
from jax import grad, jit, vmap

# from data import MNIST, input_output_figure  # scaffolding: data.py (09d41b4) and nn_utils.py are inlined below
# from nn_utils import init_network_params
import tempfile  # scaffolding
from types import SimpleNamespace  # scaffolding
import numpy as onp  # scaffolding

# ---- data.py ----
from typing import Generator, Iterable, List, Tuple

Array = np.ndarray


def one_hot(x: Array, k: int) -> Array:
    return np.array(x[:, None] == np.arange(k))

class MNIST():
    def __init__(self):
        mnist_data, info = _tfds_load_standin()  # scaffolding: tfds.load(name="mnist", batch_size=-1, with_info=True) needs tfds and a download
        mnist_data = mnist_data  # scaffolding: tfds.as_numpy(mnist_data); the stand-in is numpy already

        self.num_labels = info.features["label"].num_classes
        h, w, c = info.features["image"].shape
        self.num_pixels = h * w * c

        train_images, train_labels = (
            mnist_data["train"]["image"],
            mnist_data["train"]["label"],
        )
        self.train_images = np.reshape(train_images, (-1, self.num_pixels))
        self.train_labels = one_hot(train_labels, self.num_labels)
        print(f"Train: {train_images.shape=}, {train_labels.shape=}")

        test_images, test_labels = mnist_data["test"]["image"], mnist_data["test"]["label"]
        self.test_images = np.reshape(test_images, (-1, self.num_pixels))
        self.test_labels = one_hot(test_labels, self.num_labels)
        print(f"Test: {test_images.shape=}, {test_labels.shape=}")


    def get_batches(self, batch_size=128) -> Generator[Tuple[Array], None, None]:
        num_batches = int(np.ceil(len(self.train_images) / batch_size))
        for i in range(num_batches):
            start_idx = i * batch_size
            end_idx = (i + 1) * batch_size
            if end_idx >= len(self.train_images):
                end_idx = len(self.train_images) - 1
            yield self.train_images[start_idx:end_idx, ...], self.train_labels[start_idx:end_idx, ...]


# ---- nn_utils.py ----
def random_layer_params(m: int, n: int, key: Array, scale: float = 1e-1) -> Array:
    w_key, b_key = random.split(key)
    return scale * random.normal(w_key, (n, m)), scale * random.normal(b_key, (n,))


def init_network_params(sizes: Iterable[int], key: Array) -> List[Array]:
    keys = random.split(key, num=len(sizes))
    return [
        random_layer_params(m, n, k) for m, n, k in zip(sizes[:-1], sizes[1:], keys)
    ]


# ---- VAE.py ----
Array = np.ndarray


def relu(x: Array) -> Array:
    return np.maximum(0, x)


def encode(params: List[Tuple[Array]], x: Array) -> Tuple[Array]:
    for w, b in params[:-2]:
        x = np.dot(w, x) + b
        x = relu(x)

    w_mu, b_mu = params[-2]
    mu = np.dot(w_mu, x) + b_mu

    w_logvar, b_logvar = params[-1]
    logvar = np.dot(w_logvar, x) + b_logvar

    return mu, logvar


def sample_z(key: Array, mu: Array, logvar: Array) -> Array:
    return mu + np.exp(logvar / 2) * random.normal(key, mu.shape)


def decode(params: List[Tuple[Array]], z: Array) -> Array:
    for w, b in params[:-1]:
        z = np.dot(w, z) + b
        z = relu(z)

    w_last, b_last = params[-1]
    return np.dot(w_last, z) + b_last


def bernoulli_llh(logits: Array, x: Array) -> float:
    return -np.sum(np.logaddexp(0, logits * np.where(x, -1, 1)))


def gaussian_kl(mu: Array, logvar: Array) -> float:
    return -0.5 * np.sum(1 + logvar - mu ** 2 - np.exp(logvar))


def elbo(key, params, images, return_logits=False):
    enc_params, dec_params = params
    batch_encode = vmap(encode, in_axes=[None, 0])
    batch_decode = vmap(decode, in_axes=[None, 0])

    mu, logvar = batch_encode(enc_params, images)
    z = sample_z(key, mu, logvar)
    logits = batch_decode(dec_params, z)
    elbo = bernoulli_llh(logits, images) - gaussian_kl(mu, logvar)

    if return_logits:
        return elbo, logits
    else:
        return elbo


@jit
def SGD_update(key, params, images, step_size=1e-3):
    enc_params, dec_params = params

    loss = lambda p: -elbo(key, p, images) / len(images)
    enc_grad, dec_grad = grad(loss)(params)

    enc_params = [
        (w - dw * step_size, b - db * step_size)
        for (w, b), (dw, db) in zip(enc_params, enc_grad)
    ]
    dec_params = [
        (w - dw * step_size, b - db * step_size)
        for (w, b), (dw, db) in zip(dec_params, dec_grad)
    ]
    return enc_params, dec_params


@jit
def evaluate(key, params, images):
    vae_key, data_key = random.split(key)
    data = random.bernoulli(data_key, images / 255)
    sum_elbo, logits = elbo(vae_key, params, data, return_logits=True)
    mean_image = np.exp(-np.logaddexp(0, -logits))
    return sum_elbo / len(images), mean_image


def _tfds_load_standin():  # scaffolding: MNIST-shaped numpy dicts; 300 train / 100 test images keep a ragged last batch of 128 (60000 % 128 != 0 too)
    rng = onp.random.default_rng(0)  # scaffolding
    split = lambda n: {"image": rng.integers(0, 256, (n, 28, 28, 1)).astype(onp.uint8), "label": rng.integers(0, 10, n)}  # scaffolding
    info = SimpleNamespace(features={"label": SimpleNamespace(num_classes=10), "image": SimpleNamespace(shape=(28, 28, 1))})  # scaffolding
    return {"train": split(300), "test": split(100)}, info  # scaffolding


def input_output_figure(in_imgs, out_imgs, path):  # scaffolding: the plotting helper is not part of the problem; no figure is written
    pass  # scaffolding


os.chdir(tempfile.mkdtemp())  # scaffolding: the script creates ./images; keep it out of the case folder
if __name__ == "__main__":
    data = MNIST()

    latent_dim = 10
    enc_layers = [data.num_pixels, 512, 512, latent_dim]
    dec_layers = [latent_dim, 512, 512, data.num_pixels]

    key = random.PRNGKey(0)
    enc_key, z_key, dec_key = random.split(key, 3)
    enc_params = init_network_params(enc_layers, enc_key)
    enc_params += init_network_params(
        [512, latent_dim], key=random.split(enc_key)[1]
    )  # also add a layer for the logvar net
    dec_params = init_network_params(dec_layers, dec_key)

    num_epochs = 2  # scaffolding: 100 epochs cut to 2
    for epoch in range(num_epochs):

        start_time = time.time()
        for images, _ in data.get_batches():
            z_key, vae_key, data_key = random.split(z_key, 3)
            binary_images = random.bernoulli(data_key, images / 255)
            enc_params, dec_params = SGD_update(
                vae_key, (enc_params, dec_params), binary_images
            )

        epoch_time = time.time() - start_time
        print(f"Epoch {epoch+1}: {epoch_time:0.2f} s")

        z_key, train_key, test_key = random.split(z_key, 3)
        train_elbo, _ = evaluate(train_key, (enc_params, dec_params), data.train_images)
        print(f"Training set ELBO: {train_elbo}")
        test_elbo, test_outputs = evaluate(
            test_key, (enc_params, dec_params), data.test_images
        )
        print(f"Test set ELBO: {test_elbo}")

        n_images = 10
        out_dir = "images"
        path = os.path.join(out_dir, f"{epoch+1}.png")
        try:
            os.mkdir(out_dir)
        except FileExistsError:
            pass  # Allow overwriting
        input_output_figure(data.test_images[:n_images], test_outputs[:n_images], path)
    print({n: _COMPILED.count(n) for n in ("jit(SGD_update)", "jit(evaluate)")})  # scaffolding
    _report({"jit(SGD_update)"}, 6)  # scaffolding: 3 batches (128, 128, 43) per epoch, 2 epochs
