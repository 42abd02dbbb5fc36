# source: https://github.com/blackjax-devs/sampling-book/commit/155f499715256a21f79b61c3e07a5dad6031dc27
# expect: none
# runtime: COMPILES 1 CALLS 60
# why: the SGLD loops call jax.jit(sgld.step) anew on every step, but sgld is built once, so the same step function object is wrapped each time and jit's cache is hit: jit(step_fn) compiles once for 60 steps (the loop index passed to the jitted update_test_accuracy is a traced int too).
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

# ---- book/models/mlp.md (155f4997), code cells in order (plotting cells 5 and 8 and the SGHMC cells 10-16 cut) ----
import types  # scaffolding
import sys  # scaffolding
import numpy as _np  # scaffolding


def load_dataset(name):  # scaffolding: the Hugging Face datasets package is not installed (and MNIST needs a download); random 28x28 images, 1024 train / 256 test
    rng = _np.random.default_rng(0)  # scaffolding
    def split(n):  # scaffolding
        return [{"image": rng.integers(0, 256, size=(28, 28), dtype=_np.uint8), "label": int(rng.integers(0, 10))} for _ in range(n)]  # scaffolding
    return {"train": split(1024), "test": split(256)}  # scaffolding


class progress_bar:  # scaffolding: fastprogress is not installed; iterates and accepts .comment
    def __init__(self, it):  # scaffolding
        self.it, self.comment = it, ""  # scaffolding

    def __iter__(self):  # scaffolding
        return iter(self.it)  # scaffolding


sys.modules["datasets"] = types.SimpleNamespace(load_dataset=load_dataset)  # scaffolding
sys.modules["fastprogress"] = types.ModuleType("fastprogress")  # scaffolding
sys.modules["fastprogress.fastprogress"] = types.SimpleNamespace(progress_bar=progress_bar)  # scaffolding

# cell 1
from datasets import load_dataset
import numpy as np


mnist_data = load_dataset("mnist")
data_train, data_test = mnist_data["train"], mnist_data["test"]

X_train = np.stack([np.array(example['image']) for example in data_train])
y_train = np.array([example['label'] for example in data_train])

X_test = np.stack([np.array(example['image']) for example in data_test])
y_test = np.array([example['label'] for example in data_test])

# cell 2
import jax
import jax.numpy as jnp


def one_hot_encode(x, k):
    "Create a one-hot encoding of x of size k."
    return jnp.array(x[:, None] == jnp.arange(k), dtype=jnp.float32)


@jax.jit
def prepare_data(X, y, num_categories=10):
    y = one_hot_encode(y, num_categories)

    num_examples = X.shape[0]
    num_pixels = 28 * 28
    X = X.reshape(num_examples, num_pixels)
    X = X / 255.0

    return X, y, num_examples


def batch_data(rng_key, data, batch_size, data_size):
    """Return an iterator over batches of data."""
    while True:
        _, rng_key = jax.random.split(rng_key)
        idx = jax.random.choice(
            key=rng_key, a=jnp.arange(data_size), shape=(batch_size,)
        )
        minibatch = tuple(elem[idx] for elem in data)
        yield minibatch


X_train, y_train, N_train = prepare_data(X_train, y_train)
X_test, y_test, N_test = prepare_data(X_test, y_test)

# cell 3
import flax.linen as nn
import jax.scipy.stats as stats


class NN(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.Dense(features=500)(x)
        x = nn.relu(x)
        x = nn.Dense(features=10)(x)
        return nn.log_softmax(x)

model = NN()


def logprior_fn(params):
    """Compute the value of the log-prior density function."""
    leaves, _ = jax.tree_util.tree_flatten(params)
    flat_params = jnp.concatenate([jnp.ravel(a) for a in leaves])
    return jnp.sum(stats.norm.logpdf(flat_params))


def loglikelihood_fn(params, data):
    """Categorical log-likelihood"""
    X, y = data
    return jnp.sum(y * model.apply(params, X))


@jax.jit
def compute_accuracy(params, X, y):
    """Compute the accuracy of the model.

    To make predictions we take the number that corresponds to the highest
    probability value, which corresponds to a 1-0 loss.
    
    """
    target_class = jnp.argmax(y, axis=1)
    predicted_class = jnp.argmax(model.apply(params, X), axis=1)
    return jnp.mean(predicted_class == target_class)

# cell 4
# :tags: [remove-stderr]  # scaffolding: MyST cell tag

from fastprogress.fastprogress import progress_bar

import blackjax
from blackjax.sgmcmc.gradients import grad_estimator


data_size = len(y_train)
batch_size = 512
step_size = 4.5e-5

num_warmup = (data_size // batch_size) * 20
num_samples = 1000

# Batch the data
rng_key = jax.random.PRNGKey(1)
batches = batch_data(rng_key, (X_train, y_train), batch_size, data_size)

# Set the initial state
state = jax.jit(model.init)(rng_key, jnp.ones(X_train.shape[-1]))

# Build the SGLD kernel with a constant learning rate
grad_fn = grad_estimator(logprior_fn, loglikelihood_fn, data_size)
sgld = blackjax.sgld(grad_fn)

# Sample from the posterior
accuracies = []
steps = []

pb = progress_bar(range(num_warmup))
for step in pb:
    _, rng_key = jax.random.split(rng_key)
    batch = next(batches)
    state = jax.jit(sgld.step)(rng_key, state, batch, step_size)
    if step % 100 == 0:
        accuracy = compute_accuracy(state, X_test, y_test)
        accuracies.append(accuracy)
        steps.append(step)
        pb.comment = f"| error: {100*(1-accuracy): .1f}"

# cell 6
# :tags: [hide-input]  # scaffolding: MyST cell tag

@jax.jit
def update_test_accuracy(i, logpredictprob, sample):
    """Update the running average log-predictive probability
    and return the current value of the accuracy.

    """
    new_logpredictprob = jnp.logaddexp(
        logpredictprob,
        jax.vmap(model.apply, in_axes=(None, 0))(sample, X_test)
    )
    predict_probs = jnp.exp(new_logpredictprob) / (i+1)
    
    predicted = jnp.argmax(predict_probs, axis=1)
    target = jnp.argmax(y_test, axis=1)
    accuracy= jnp.mean(predicted==target)
    
    return new_logpredictprob, accuracy

# cell 7
sgld_accuracies = []
sgld_logpredict = jax.vmap(model.apply, in_axes=(None, 0))(state, X_test)
num_samples = 20  # scaffolding: 1000 in the notebook

pb = progress_bar(range(num_samples))
for step in pb:
    _, rng_key = jax.random.split(rng_key)
    batch = next(batches)
    state = jax.jit(sgld.step)(rng_key, state, batch, step_size)
    sgld_logpredict, accuracy = update_test_accuracy(step, sgld_logpredict, state)
    sgld_accuracies.append(accuracy)
    pb.comment = f"| avg error: {100*(1-accuracy): .1f}"

# cell 9
last_accuracy = compute_accuracy(state, X_test, y_test)
print(sgld_accuracies[-1], last_accuracy)
print(sgld_accuracies[-1] - last_accuracy)


# ---- scaffolding: report ----
_report({"jit(step_fn)"}, num_warmup + num_samples)  # scaffolding: jax.jit(sgld.step) is called once per warmup and sampling step
