# source: https://github.com/google/flax/issues/1492
# expect: trace-time-error at line 70
# runtime: ERROR TypeError
# why: the cifar10 test batch dict still holds the 'id' feature, a numpy array of bytes strings; eval_step is jitted, so every leaf of batch must be a numeric array and the call raises TypeError ('is not a valid JAX type').

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


import numpy as np  # scaffolding
import jax
import jax.numpy as jnp
import flax.linen as nn
import optax


class CNN(nn.Module):
  """A simple CNN model."""

  @nn.compact
  def __call__(self, x):
    x = nn.Conv(features=8, kernel_size=(3, 3))(x)  # scaffolding: 32/64 features in the example
    x = nn.relu(x)
    x = nn.avg_pool(x, window_shape=(2, 2), strides=(2, 2))
    x = x.reshape((x.shape[0], -1))  # flatten
    x = nn.Dense(features=10)(x)
    return x


def compute_metrics(logits, labels):
  loss = optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()  # scaffolding: the example's cross_entropy_loss
  accuracy = jnp.mean(jnp.argmax(logits, -1) == labels)
  metrics = {
      'loss': loss,
      'accuracy': accuracy,
  }
  return metrics


@jax.jit
def eval_step(params, batch):
  logits = CNN().apply({'params': params}, batch['image'])
  return compute_metrics(logits=logits, labels=batch['label'])


# scaffolding: tfds cifar10 test split as numpy arrays, which keeps its 'id' feature
test_ds = {'image': np.zeros((4, 32, 32, 3), np.float32), 'label': np.zeros((4,), np.int32),
           'id': np.array([b'test_09933', b'test_05669', b'test_00163', b'test_03829'])}
params = CNN().init(jax.random.PRNGKey(0), jnp.ones([1, 32, 32, 3]))['params']

try:  # scaffolding
  metrics = eval_step(params, test_ds)
  _report({"jit(eval_step)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
