# source: https://github.com/blakeelias/deep_learning_review/blob/e71c3908d942e6e4496d003f7e42ddb8dbab09dd/jax_basics.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 600
# why: The loop slices x_train[idx[i:i+batch_size]] with range(0, N, batch_size), but 60000 is a multiple of 100 so every batch has the same shape, and the globals W1..B2 read by the jitted update are never reassigned: one compile for 600 calls.

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
import jax.numpy as jnp
from jax import grad, jit, vmap
from jax import random
from jax import nn
import numpy as np

# %% cells 1-2 (download and gzip loading cut): scaffolding, stand-in arrays with MNIST's shapes and dtypes
_rng = np.random.default_rng(0)
x_train = jnp.asarray(_rng.integers(0, 256, (60000, 28, 28), dtype=np.uint8)).reshape(-1, 28*28) / 255
y_train = jnp.asarray(_rng.integers(0, 10, (60000,), dtype=np.uint8))
x_test = jnp.asarray(_rng.integers(0, 256, (10000, 28, 28), dtype=np.uint8)).reshape(-1, 28*28) / 255
y_test = jnp.asarray(_rng.integers(0, 10, (10000,), dtype=np.uint8))

# %% cell 3
# How big is our dataset? What kind of data do we have? 

print(x_train.shape, ', ', x_train.dtype)
print(y_train.shape, ', ', y_train.dtype)
print()
print(x_test.shape, ', ', x_test.dtype)
print(y_test.shape, ', ', y_test.dtype)

# %% cell 7
rkey = random.PRNGKey(0)
INPUT_DIM = x_train.shape[-1]
HIDDEN_DIM = 256
OUTPUT_DIM = 10
SCALE = 1e-2

# Define and initialize the model parameters by sampling each element i.i.d. from a normal distribution
rkeys = random.split(rkey, 4)
W1 = SCALE * random.normal(rkeys[0], (INPUT_DIM, HIDDEN_DIM))
W2 = SCALE * random.normal(rkeys[1], (HIDDEN_DIM, OUTPUT_DIM))
B1 = SCALE * random.normal(rkeys[2], (1, HIDDEN_DIM))
B2 = SCALE * random.normal(rkeys[3], (1, OUTPUT_DIM))

parameters = [W1, W2, B1, B2]


def relu(x):
  return jnp.maximum(0, x)

def model_fn(x):
  h = relu(x @ W1 + B1)
  return h @ W2 + B2


# %% cell 8
def mle_loss(logits, labels):
  log_probs = nn.log_softmax(logits, axis=1)
  selected = jnp.take_along_axis(log_probs, labels[:, None], axis=1)
  return -selected.mean()

def regularizer(params):
  return sum(jnp.linalg.norm(p, 1) for p in params)  # regularization

def accuracy(logits, target):
  argmaxs = jnp.argmax(logits, axis=1)
  corrects = jnp.equal(argmaxs, target)
  return corrects.mean()

# %% cell 10
def forward(params, x, y, regularizer_weight):
  logits = model_fn(x)
  return mle_loss(logits, y) + regularizer_weight * regularizer(params)


@jit
def update(params, x, y, learning_rate, regularizer_weight):
  grads = grad(forward)(params, x, y, regularizer_weight)
  return [p - learning_rate * g for p, g in zip(params, grads)]

# %% cell 12
batch_size = 100
learning_rate = 1e-2
regularizer_weight = 1e-4
n_calls = 0  # scaffolding

for epoch in range(1):  # scaffolding: 1000 epochs in the notebook
  idx = np.random.permutation(x_train.shape[0])  # random ordering of the training set

  ## training step
  for i in range(0, x_train.shape[0], batch_size):
    x = x_train[idx[i:i+batch_size]]
    y = y_train[idx[i:i+batch_size]]

    parameters = update(parameters, x, y, learning_rate, regularizer_weight)
    n_calls += 1  # scaffolding

    if i % (batch_size * 100) == 0:
      loss_ = forward(parameters, x, y, regularizer_weight).tolist()
      print('Step:', i//batch_size, '; Loss:', loss_)

  train_logits = model_fn(x_train)  # Training accurate
  test_logits = model_fn(x_test)  # Test accuracy
  print('')
  print('Epoch: %d | Train Accuracy: %.2f | Test Accuracy: %.2f' % (epoch, accuracy(train_logits, y_train).tolist(), accuracy(test_logits, y_test).tolist()))
  print('')
_report({"jit(update)"}, n_calls)  # scaffolding
