# source: https://github.com/jonpea/jax-demos/blob/fd9e1b68079a168ec5bae62a7230ab17bf854cf2/flax_mnist.py
# expect: none
# runtime: COMPILES 1 CALLS 9
# why: eval_step is a module-level jit with static_argnums=(1,) and is passed state.apply_fn, a bound method of the Linen model created anew on each attribute access; bound methods of the same module hash and compare equal, so the static argument hits the cache and eval_step compiles once.

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


class MLP(nn.Module):
    """Multi-layer perceptron approximation architecture."""

    hidden_dim: int = 256
    num_classes: int = 10

    @nn.compact
    def __call__(self, x: JaxArray) -> JaxArray:
        x = nn.relu(nn.Dense(self.hidden_dim)(x))
        x = nn.Dense(self.num_classes)(x)
        return x


# ------------------ Train / Eval steps ------------------
def compute_metrics(
    apply_fn, params, x: JaxArray, y: JaxArray
) -> tuple[JaxArray, JaxArray]:
    logits: JaxArray = apply_fn({"params": params}, x)
    loss: JaxArray = optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()
    accuracy: JaxArray = (jnp.argmax(logits, axis=-1) == y).mean()
    return loss, accuracy


@functools.partial(jax.jit, static_argnums=(1,))
def eval_step(params, apply_fn, x: JaxArray, y: JaxArray) -> tuple[JaxArray, JaxArray]:
    return compute_metrics(apply_fn, params, x, y)


@dataclass
class Averaged:
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
    loss: Averaged = field(default_factory=Averaged)
    accuracy: Averaged = field(default_factory=Averaged)

    def update(self, loss, accuracy, batch_size: int) -> None:
        self.loss.update(float(loss), batch_size)
        self.accuracy.update(float(accuracy), batch_size)


def evaluate(
    state: train_state.TrainState,
    batches: Iterator[BatchedExamples],
) -> Metrics:
    metrics = Metrics()
    for xb, yb in batches:
        loss, accuracy = eval_step(state.params, state.apply_fn, xb, yb)
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
_report({"jit(eval_step)"}, _calls)  # scaffolding
