# source: https://github.com/jonpea/jax-demos/blob/38f2c657f6a483327d69082579fb6388c55c69b6/flax_mnist.py
# expect: jit-in-loop-or-body at line 112
# runtime: COMPILES 9 CALLS 9
# why: At this commit evaluate() calls make_eval_step(state.apply_fn) inside its batch loop, so every eval batch gets a freshly built @jax.jit closure and is traced and compiled again: one compile per eval call.

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
import functools
from dataclasses import dataclass, field
from typing import Any, Iterator

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.training import train_state

JaxArray = jax.Array  # scaffolding: the file's `type JaxArray = jax.Array`
BatchedExamples = tuple  # scaffolding: the file's `type BatchedExamples = tuple[...]`


# --- data_utilities.py ---
@dataclass
class RunningAverage:
    """Maintains a running average."""

    aggregate: float = 0.0
    count: int = 0

    def update(self, x: float, batch_size: int) -> None:
        self.aggregate += x * batch_size
        self.count += batch_size

    @property
    def mean(self) -> float:
        return np.nan if self.count == 0 else self.aggregate / self.count


@dataclass
class Metrics:
    loss: RunningAverage = field(default_factory=RunningAverage)
    accuracy: RunningAverage = field(default_factory=RunningAverage)

    def update(self, loss, accuracy, batch_size: int) -> None:
        self.loss.update(float(loss), batch_size)
        self.accuracy.update(float(accuracy), batch_size)


# --- flax_mnist.py ---
class MLP(nn.Module):
    """Multi-layer perceptron approximation architecture."""

    hidden_dim: int = 256
    num_classes: int = 10

    @nn.compact
    def __call__(self, x: JaxArray) -> JaxArray:
        x = nn.relu(nn.Dense(self.hidden_dim)(x))
        x = nn.Dense(self.num_classes)(x)
        return x


def compute_metrics(
    apply_fn, params, x: JaxArray, y: JaxArray
) -> tuple[JaxArray, JaxArray]:
    logits: JaxArray = apply_fn({"params": params}, x)
    loss: JaxArray = (
        optax.softmax_cross_entropy_with_integer_labels(logits, y)
        .mean()
        .astype(jnp.float32)
    )
    accuracy: JaxArray = (jnp.argmax(logits, axis=-1) == y).mean().astype(jnp.float32)
    return loss, accuracy


def make_eval_step(apply_fn):
    @jax.jit
    def _eval(params, x: JaxArray, y: JaxArray):
        return compute_metrics(apply_fn, params, x, y)

    return _eval


def evaluate(
    state: train_state.TrainState,
    batches: Iterator[BatchedExamples],
) -> Metrics:
    metrics = Metrics()
    for xb, yb in batches:
        eval_step = make_eval_step(state.apply_fn)
        loss, accuracy = eval_step(state.params, xb, yb)
        metrics.update(float(loss), float(accuracy), xb.shape[0])
    return metrics


# scaffolding: main() reduced to repeated evaluation (training, HF streaming MNIST, prefetching,
# checkpointing cut). The stand-in test set is 3 full batches of 128 (MNIST's test set would end
# with a 16-row batch, which adds one more shape; left out so the count shows the eval-step cost only).
_rng = np.random.default_rng(0)
test_images = _rng.normal(size=(384, 784)).astype(np.float32)
test_labels = _rng.integers(0, 10, size=(384,))
batch_size = 128
model = MLP()
initial_variables: dict[str, Any] = model.init(
    jax.random.PRNGKey(0), jnp.ones((1, 784), jnp.float32)
)
state = train_state.TrainState.create(
    apply_fn=model.apply,
    params=initial_variables["params"],
    tx=optax.adam(learning_rate=1e-3),
)
_calls = 0  # scaffolding
for epoch in range(1, 4):  # scaffolding: 3 evaluation rounds (one per epoch)
    eval_iter = ((jnp.asarray(test_images[i:i + batch_size]), jnp.asarray(test_labels[i:i + batch_size], dtype=jnp.int32))
                 for i in range(0, test_images.shape[0], batch_size))  # scaffolding: stand-in iterator
    eval_metrics = evaluate(state, eval_iter)
    _calls += 3  # scaffolding
    print(epoch, eval_metrics.loss.mean, eval_metrics.accuracy.mean)
_report({"jit(_eval)"}, _calls)  # scaffolding
