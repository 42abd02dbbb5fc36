# source: https://github.com/MURA-omura/jax-flax/blob/16cb736db78acf9527d65d6f7dafad3b90fb2cfa/mnist.py
# expect: shape-churn at line 104
# runtime: COMPILES 3 CALLS 21
# why: The test pipeline is batched with .batch(32) and no drop_remainder, and MNIST's 10000 test images leave a 16-row final batch, so the jitted step (is_train=False) compiles a second time for that batch; the training set divides evenly and compiles once.

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
import time
from functools import partial

import jax
import jax.numpy as jnp
import flax.linen as fnn
from flax.training.train_state import TrainState
import optax
import numpy as np  # scaffolding


class _Batched:  # scaffolding: stand-in for the tf.data pipelines (tfds MNIST, .batch(32), /255 map)
    def __init__(self, n, batch, seed):
        r = np.random.default_rng(seed)
        self.x = r.random((n, 28, 28, 1), dtype=np.float32)
        self.y = r.integers(0, 10, size=(n,))
        self.batch = batch

    def __len__(self):
        return -(-len(self.x) // self.batch)

    def as_numpy_iterator(self):
        for i in range(0, len(self.x), self.batch):
            yield self.x[i:i + self.batch], self.y[i:i + self.batch]


# scaffolding: MNIST sizes scaled down with the same remainders at batch 32: 60000 % 32 = 0 (train, here 128 rows) and 10000 % 32 = 16 (test, here 80 rows)
train_set = _Batched(128, 32, 0)
val_set = _Batched(80, 32, 1)

# model
class MLP(fnn.Module):
    @fnn.compact
    def __call__(self, x):
        x = fnn.Dense(128)(x)
        x = fnn.relu(x)
        x = fnn.Dense(256)(x)
        x = fnn.relu(x)
        x = fnn.Dense(10)(x)
        x = fnn.log_softmax(x)
        
        return x

model = MLP()
params = model.init(jax.random.PRNGKey(0), jnp.ones([1, 28 * 28]))['params']
tx = optax.adam(0.001)
state = TrainState.create(apply_fn=model.apply, params=params, tx=tx)

@partial(jax.jit, static_argnums=(3,))
def step(x, y, state, is_train=True):
    def loss_fn(params):
        y_pred = state.apply_fn({'params': params}, x) 
        loss = optax.softmax_cross_entropy(logits=y_pred, labels=y).mean()
        return loss, y_pred
    x = x.reshape(-1, 28 * 28)
    y = jnp.eye(10)[y]
    if is_train:
        grad_fn = jax.value_and_grad(loss_fn, has_aux=True)
        (loss, y_pred), grads = grad_fn(state.params)
        state = state.apply_gradients(grads=grads)
    else:
        loss, y_pred = loss_fn(state.params)
    return loss, y_pred, state

_calls = 0  # scaffolding
for e in range(3):  # scaffolding: 10 epochs in the script
    tic = time.time()
    train_loss, val_loss, acc = 0., 0., 0.
    for x, y in train_set.as_numpy_iterator(): 
        loss, y_pred, state = step(x, y, state, is_train=True)
        _calls += 1  # scaffolding
        train_loss += loss
    train_loss /= len(train_set)

    for x, y in val_set.as_numpy_iterator(): 
        loss, y_pred, state = step(x, y, state, is_train=False)
        _calls += 1  # scaffolding
        val_loss += loss
        acc += (jnp.argmax(y_pred, 1) == y).mean()
    val_loss /= len(val_set)
    acc /= len(val_set)
    elapsed = time.time() - tic
    
    print(f"train_loss: {train_loss:0.2f}, val_loss: {val_loss:0.2f}, val_acc: {acc:0.2f}, elapsed: {elapsed:0.2f}")
_report({"jit(step)"}, _calls)  # scaffolding
