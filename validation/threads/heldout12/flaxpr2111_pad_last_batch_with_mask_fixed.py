# source: https://github.com/google/flax/pull/2111
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: the HOWTO's manual implementation pads the last batch with zeros to per_host_batch_size and slices the predictions back to n, so get_preds always sees one shape and compiles once for four calls.

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
import numpy as np  # scaffolding
import jax  # scaffolding
import flax.linen as nn  # scaffolding

model = nn.Dense(10)  # scaffolding: stand-in classifier
per_host_batch_size = 16  # scaffolding: single host, single device
rng = np.random.default_rng(0)  # scaffolding
test_images = rng.normal(size=(50, 784)).astype(np.float32)  # scaffolding: stand-in for the mnist test split
test_labels = rng.integers(0, 10, size=(50,))  # scaffolding
variables = model.init(jax.random.PRNGKey(0), test_images[:1])  # scaffolding


def batch_ds(batch_size):  # scaffolding: stand-in for ds.as_numpy_iterator() over .batch(batch_size)
  for i in range(0, len(test_images), batch_size):  # scaffolding
    yield {'image': test_images[i:i + batch_size], 'label': test_labels[i:i + batch_size]}  # scaffolding


@jax.jit  # scaffolding: single-device case of the HOWTO (jit instead of pmap, no psum)
def get_preds(variables, images):
  print('retrigger compilation', images.shape)  # scaffolding
  return model.apply(variables, images)  # scaffolding


correct = total = 0
calls = 0  # scaffolding
for batch in batch_ds(per_host_batch_size):
  images = batch['image']
  n = len(images)
  padding = np.zeros([per_host_batch_size - n, *images.shape[1:]], images.dtype)
  padded_images = np.concatenate([images, padding])
  preds = get_preds(variables, padded_images)[:n]
  calls += 1  # scaffolding
  total += n
  correct += (batch['label'] == preds.argmax(axis=-1)).sum()
print(correct, total)  # scaffolding
_report({"jit(get_preds)"}, calls)  # scaffolding
