# source: https://github.com/google/flax/issues/4045
# expect: stale-closure at line 76
# runtime: COMPILES 1 CALLS 4
# why: train_step is plain jax.jit over nnx objects: optimizer.update(grads) and metrics.update(...) mutate the traced copies only, so after 4 steps the model parameters are unchanged (the updates are discarded).

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


from functools import partial

import jax
import jax.numpy as jnp
import optax
from flax import nnx


# scaffolding: model, loss and metrics from the Flax NNX MNIST tutorial the comment links to, at small sizes
class CNN(nnx.Module):
  """A simple CNN model."""

  def __init__(self, *, rngs: nnx.Rngs):
    self.conv1 = nnx.Conv(1, 4, kernel_size=(3, 3), rngs=rngs)
    self.avg_pool = partial(nnx.avg_pool, window_shape=(2, 2), strides=(2, 2))
    self.linear1 = nnx.Linear(4 * 4 * 4, 10, rngs=rngs)

  def __call__(self, x):
    x = self.avg_pool(nnx.relu(self.conv1(x)))
    x = x.reshape(x.shape[0], -1)  # flatten
    x = self.linear1(x)
    return x


def loss_fn(model: CNN, batch):
  logits = model(batch['image'])
  loss = optax.softmax_cross_entropy_with_integer_labels(
    logits=logits, labels=batch['label']
  ).mean()
  return loss, logits


model = CNN(rngs=nnx.Rngs(0))
optimizer = nnx.ModelAndOptimizer(model, optax.adamw(0.005, 0.9))  # scaffolding: nnx.Optimizer(model, ...) in flax 0.8
metrics = nnx.MultiMetric(
  accuracy=nnx.metrics.Accuracy(),
  loss=nnx.metrics.Average('loss'),
)


# the comment's proposed pattern
@jax.jit
def train_step(state, graphdef, optimizer: nnx.Optimizer, metrics: nnx.MultiMetric, batch):
  """Train for a single step."""
  model = nnx.merge(graphdef, state)
  grad_fn = nnx.value_and_grad(loss_fn, has_aux=True)
  (loss, logits), grads = grad_fn(model, batch)
  metrics.update(loss=loss, logits=logits, labels=batch['label'])
  optimizer.update(grads)


def _batches(n):  # scaffolding: stand-in for train_ds.as_numpy_iterator()
  key = jax.random.PRNGKey(0)  # scaffolding
  for i in range(n):  # scaffolding
    k1, k2 = jax.random.split(jax.random.fold_in(key, i))  # scaffolding
    yield {'image': jax.random.normal(k1, (8, 8, 8, 1)), 'label': jax.random.randint(k2, (8,), 0, 10)}  # scaffolding


before = jax.tree.map(jnp.copy, nnx.state(optimizer.model, nnx.Param))  # scaffolding
for step, batch in enumerate(_batches(4)):  # scaffolding: train_ds.as_numpy_iterator()
    graph_def, state = nnx.split(optimizer.model)  # scaffolding: the comment writes `state, graphdef = ...` (wrong order) and then passes graph_def
    train_step(state, graph_def, optimizer, metrics, batch)
after = nnx.state(optimizer.model, nnx.Param)  # scaffolding
changed = any(not jnp.allclose(a, b) for a, b in zip(jax.tree.leaves(before), jax.tree.leaves(after)))  # scaffolding
print("parameters changed after 4 steps:", changed)  # scaffolding
_report({"jit(train_step)"}, 4)  # scaffolding
