# source: https://flax.readthedocs.io/en/latest/guides/data_preprocessing/full_eval.html
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the guide pads the last, partial evaluation batch to per_host_batch_size before sharding, so the pmapped get_preds keeps one shape and compiles once.
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

import flax  # scaffolding
import flax.jax_utils  # scaffolding
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
import numpy as np  # scaffolding
import types  # scaffolding

einops = types.SimpleNamespace(rearrange=lambda x, pattern, d=None: (  # scaffolding: einops not installed; the two patterns the guide uses
    x.reshape((d, -1) + x.shape[1:]) if pattern.startswith('(d b)') else x.reshape((-1,) + x.shape[2:])))  # scaffolding

per_device_batch_size = 32  # scaffolding
per_host_batch_size = per_device_batch_size * jax.local_device_count()  # scaffolding


class _Ds:  # scaffolding: a tf.data-like eval dataset of 80 images batched by 32 (partial last batch of 16)
    def as_numpy_iterator(self):  # scaffolding
        r = np.random.default_rng(0)  # scaffolding
        images, labels = r.normal(size=(80, 8)).astype(np.float32), r.integers(0, 4, (80,))  # scaffolding
        for i in range(0, 80, per_host_batch_size):  # scaffolding
            yield {'image': images[i:i + per_host_batch_size], 'label': labels[i:i + per_host_batch_size]}  # scaffolding


ds = _Ds()  # scaffolding
variables = vs = {'w': jnp.ones((jax.local_device_count(), 8, 4))}  # scaffolding: replicated linear-model weights


@jax.pmap  # scaffolding: the guide's get_preds is a pmapped predict function
def get_preds(variables, images):  # scaffolding
    return images @ variables['w']  # scaffolding

shard = lambda x: einops.rearrange(
    x, '(d b) ... -> d b ...', d=jax.local_device_count())
unshard = lambda x: einops.rearrange(x, 'd b ... -> (d b) ...')

correct = total = 0
for batch in ds.as_numpy_iterator():
  images = batch['image']
  n = len(images)
  padding = np.zeros([per_host_batch_size - n, *images.shape[1:]], images.dtype)
  padded_images = np.concatenate([images, padding])
  preds = unshard(get_preds(variables, shard(padded_images)))[:n]
  total += n
  correct += (batch['label'] == preds.argmax(axis=-1)).sum()
_report({"jit(_fun)"}, 3)  # scaffolding
