# source: https://github.com/google/flax/pull/2111
# expect: shape-churn at line 65
# runtime: COMPILES 2 CALLS 4
# why: the eval loop keeps the last incomplete batch (50 examples in batches of 16 leave 2), so the jitted eval_step sees a second input shape and compiles twice for four calls.

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
import collections  # scaffolding
import numpy as np  # scaffolding
import jax  # scaffolding
import flax.linen as nn  # scaffolding

model = nn.Dense(10)  # scaffolding: stand-in classifier
per_device_batch_size = 16  # scaffolding: 512 in the HOWTO
rng = np.random.default_rng(0)  # scaffolding
test_images = rng.normal(size=(50, 784)).astype(np.float32)  # scaffolding: stand-in for the mnist test split
test_labels = rng.integers(0, 10, size=(50,))  # scaffolding
variables = model.init(jax.random.PRNGKey(0), test_images[:1])  # scaffolding


def batch_ds(batch_size):  # scaffolding: stand-in for tfds.load('mnist', split='test').batch(batch_size)
  for i in range(0, len(test_images), batch_size):  # scaffolding
    yield {'image': test_images[i:i + batch_size], 'label': test_labels[i:i + batch_size]}  # scaffolding


print(collections.Counter(
    tuple(batch['image'].shape)
    for batch in batch_ds(per_device_batch_size)
))


@jax.jit  # scaffolding: single-device case of the HOWTO (jit instead of pmap, no psum)
def eval_step(variables, batch):
  print('retrigger compilation', {k: v.shape for k, v in batch.items()})
  preds = model.apply(variables, batch['image'])
  correct = (batch['label'] == preds.argmax(axis=-1)).sum()  # scaffolding: HOWTO masks and psums
  total = batch['label'].shape[0]  # scaffolding: HOWTO sums the mask
  return dict(correct=correct, total=total)  # scaffolding: HOWTO adds to running metrics


correct = total = 0  # scaffolding
calls = 0  # scaffolding
for batch in batch_ds(per_device_batch_size):  # scaffolding: last batch kept with its smaller shape
  metrics = eval_step(variables, batch)
  correct += int(metrics['correct'])  # scaffolding
  total += int(metrics['total'])  # scaffolding
  calls += 1  # scaffolding
print(correct, total)  # scaffolding
_report({"jit(eval_step)"}, calls)  # scaffolding
