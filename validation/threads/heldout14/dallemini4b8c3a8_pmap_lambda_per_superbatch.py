# source: https://github.com/borisdayma/dalle-mini/commit/4b8c3a87758bfeba53ec8331c0e41a74181a0731
# expect: jit-in-loop-or-body at line 106
# runtime: COMPILES 4 CALLS 4
# why: encode_dataset wraps a fresh lambda in pmap inside the loop over superbatches, so every superbatch builds a new pmap and traces and compiles the encoder again.

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
os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"  # scaffolding: 8 devices, as on the TPU VM
from types import SimpleNamespace

import jax
import jax.numpy as jnp
import numpy as np
from jax import pmap
from tqdm import tqdm


class Tensor(np.ndarray):  # scaffolding: the torch tensors the DataLoader yields
    def numpy(self):
        return np.asarray(self)


torch = SimpleNamespace(stack=lambda xs, axis=0: np.stack(xs, axis=axis).view(Tensor))  # scaffolding


class DataLoader:  # scaffolding: torch DataLoader over random 32x32 "images"
    def __init__(self, dataset, batch_size, num_workers=0):
        self.dataset, self.batch_size = dataset, batch_size

    def __iter__(self):
        for i in range(0, len(self.dataset), self.batch_size):
            yield self.dataset[i:i + self.batch_size].view(Tensor)


class VQModel:  # scaffolding: a tiny VQGAN encoder (patch embedding + nearest codebook entry)
    def __init__(self, key):
        k1, k2 = jax.random.split(key)
        self.proj = jax.random.normal(k1, (4 * 4 * 3, 8))
        self.codebook = jax.random.normal(k2, (64, 8))

    def encode(self, batch):
        b, h, w, c = batch.shape
        patches = batch.reshape(b, h // 4, 4, w // 4, 4, c).transpose(0, 1, 3, 2, 4, 5).reshape(b, -1, 48)
        z = patches @ self.proj
        d = jnp.sum((z[..., None, :] - self.codebook) ** 2, axis=-1)
        indices = jnp.argmin(d, axis=-1)
        return self.codebook[indices], indices


model = VQModel(jax.random.PRNGKey(0))


def encode(model, batch):
    _, indices = model.encode(batch)
    return indices


def superbatch_generator(dataloader):
    iter_loader = iter(dataloader)
    for batch in iter_loader:
        superbatch = [batch.squeeze(1)]
        try:
            for b in range(7):
                batch = next(iter_loader)
                if batch is None:
                    break
                # Skip incomplete last batch
                if batch.shape[0] == dataloader.batch_size:
                    superbatch.append(batch.squeeze(1))
        except StopIteration:
            pass
        superbatch = torch.stack(superbatch, axis=0)
        yield superbatch


def encode_dataset(dataset, batch_size=32):
    num_workers = 16
    dataloader = DataLoader(dataset, batch_size=batch_size, num_workers=num_workers)
    superbatches = superbatch_generator(dataloader)

    # TODO: save to disk as we go, do not accumulate everything in RAM
#     encoder = pmap(lambda batch: encode(model, batch))
    results = None
    for superbatch in tqdm(superbatches):
        encoded = pmap(lambda batch: encode(model, batch))(superbatch.numpy())
        encoded = encoded.reshape(encoded.shape[0] * encoded.shape[1], -1)
        results = np.concatenate((results, encoded), axis=0) if results is not None else encoded
    return results


# scaffolding: 4 superbatches of 8 x 4 images (every superbatch full)
dataset = np.random.default_rng(0).uniform(size=(128, 1, 32, 32, 3)).astype(np.float32)
results = encode_dataset(dataset, batch_size=4)
_report({"jit(_fun)"}, len(dataset) // (8 * 4))  # pmap compiles are reported as jit(_fun) in this JAX
