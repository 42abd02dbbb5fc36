# source: https://github.com/noahzhy/jax_learning/blob/235ad01f8f8a444ac09c49bc2667135047c2d6e6/eval.py
# expect: shape-churn at line 116
# runtime: COMPILES 2 CALLS 3
# why: the test set is batched by 256 without dropping the remainder, so the last batch is smaller and the jitted eval_model sees a new input shape and compiles a second time (2 compiles for 3 batches; with MNIST's 10000 test images the 40th batch holds 16).
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


# ---- model.py ----  # scaffolding: file marker
import jax
import jax.numpy as jnp
import flax.linen as nn


class Model(nn.Module):
    def setup(self):
        self.conv1 = nn.Conv(features=16, kernel_size=(3, 3))
        self.conv2 = nn.Conv(features=32, kernel_size=(3, 3))
        self.conv3 = nn.Conv(features=64, kernel_size=(3, 3))
        self.dense1 = nn.Dense(features=256)
        self.dense2 = nn.Dense(features=10)

    @nn.compact
    def __call__(self, x):
        x = nn.relu(self.conv1(x))
        x = nn.relu(self.conv2(x))
        x = nn.relu(self.conv3(x))
        x = jnp.mean(x, axis=(1, 2))
        x = nn.relu(self.dense1(x))
        x = self.dense2(x)
        return x


# ---- dataloader.py ----  # scaffolding: file marker
import jax
import jax.numpy as jnp

# load the mnist dataset
import numpy as np  # scaffolding: tensorflow_datasets is not installed; tfds-like stand-in below


def _tfds_mnist_batches(split, batch_size):  # scaffolding: tfds.load('mnist', as_supervised=True).batch(batch_size): the last batch keeps the remainder
    n = 600 if split == "test" else 1200  # scaffolding: 600 test images (MNIST has 10000; both leave a remainder with batch 256)
    rng = np.random.default_rng(0)  # scaffolding
    x = rng.integers(0, 256, size=(n, 28, 28, 1)).astype(np.uint8)  # scaffolding
    y = rng.integers(0, 10, size=n)  # scaffolding
    return [(x[i:i + batch_size], y[i:i + batch_size]) for i in range(0, n, batch_size)]  # scaffolding


def get_test_batches(batch_size=32):
    return _tfds_mnist_batches("test", batch_size)  # scaffolding: was tfds.load(name='mnist', split='test', ...).batch(batch_size).prefetch(1)

# ---- eval.py ----  # scaffolding: file marker
import jax
import optax
from tqdm import tqdm
import jax.numpy as jnp
import flax.linen as nn
# from flax.training import checkpoints  # scaffolding: no checkpoint to restore
from flax.training.train_state import TrainState

# from model import Model  (defined above)  # scaffolding: flattened
# from dataloader import get_test_batches  (defined above)  # scaffolding: flattened


@jax.jit
def eval_model(params, batch):
    x, y = batch
    logits = model.apply(params, x)
    acc = jnp.mean(jnp.argmax(logits, axis=-1) == y)
    return acc


if __name__ == "__main__":
    device = jax.local_devices()
    print(device)

    key = jax.random.PRNGKey(0)
    x = jnp.ones((1, 28, 28, 1))

    model = Model()
    params = model.init(key, x)
    opt = optax.chain(optax.clip_by_global_norm(1.0), optax.adam(2e-3))

    batch_size = 256
    test_ds = get_test_batches(batch_size)

    state = TrainState.create(
        apply_fn=model.apply,
        params=params,
        tx=opt,)

    # restore the model
    # state = checkpoints.restore_checkpoint(ckpt_dir="checkpoints", target=state, step=8,)  # scaffolding: evaluate the freshly initialised params

    accuracy = jnp.array([])
    for batch in tqdm(test_ds):
        acc = eval_model(state.params, batch)
        accuracy = jnp.append(accuracy, acc)

    acc = accuracy.mean()
    print(f"accuracy: {acc:.4f}")
    _report({"jit(eval_model)"}, 3)  # scaffolding: 3 test batches (256, 256, 88)
