# source: https://github.com/jonpea/jax-demos/blob/34c414dbcb8863d1e190e2692266d16aafc5a439/flax_mnist.py
# expect: jit-in-loop-or-body at line 178; shape-churn at line 191
# runtime: COMPILES 10 CALLS 28
# why: evaluate() calls jit_eval_step(state.apply_fn) every epoch, which builds a fresh @jax.jit closure, so the eval step is traced and compiled again each epoch (for both test-batch shapes); and the HF batch iterator yields a short final batch (60000 % 128 = 96), so the module-level train_step compiles a second time.

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
import queue  # data_utilities.py
import threading  # data_utilities.py
from dataclasses import dataclass, field
from typing import Any, Callable, Final, Iterator, TypeVar, cast

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.training.train_state import TrainState

# scaffolding: custom_types.py reduced to plain aliases
ApplyFn = Callable
BatchedExamples = tuple
JaxArray = jax.Array
JaxScalar = jax.Array
Metrics = tuple
PyTree = Any

# --- data_utilities.py (prefetch, RunningAverage, RunningMetrics) ---
T = TypeVar("T")
_SENTINEL: Final = object()


def prefetch(batches: Iterator[T], size: int = 2, timeout: float = 30.0) -> Iterator[T]:
    """Prefetch a few batches to device on a background thread."""

    if size <= 0:
        # No pre-fetch
        yield from batches
        return

    q: queue.Queue[T | object | Exception] = queue.Queue(maxsize=size)
    thread_done = threading.Event()

    def prefetch_worker() -> None:
        try:
            for b in batches:
                if thread_done.is_set():
                    break
                q.put(jax.device_put(b))
            q.put(_SENTINEL)
        except Exception as e:
            q.put(e)
        finally:
            thread_done.set()

    thread = threading.Thread(target=prefetch_worker, daemon=True)
    thread.start()

    try:
        while True:
            item = q.get(timeout=timeout)
            if isinstance(item, Exception):
                raise item
            if item is _SENTINEL:
                break
            yield cast(T, item)
    finally:
        thread_done.set()
        thread.join()  # blocking (no timeout)


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
class RunningMetrics:
    loss: RunningAverage = field(default_factory=RunningAverage)
    accuracy: RunningAverage = field(default_factory=RunningAverage)

    def update(self, loss, accuracy, batch_size: int) -> None:
        self.loss.update(float(loss), batch_size)
        self.accuracy.update(float(accuracy), batch_size)



def make_huggingface_iterator(dataset, shuffle, *, batch_size, data_key=None, shuffle_buffer_size=None):
    """scaffolding: stand-in for data_utilities.make_huggingface_iterator over HF MNIST; like the
    original it yields (xb, yb) batches of batch_size with a smaller final batch
    ("final batch might be smaller")."""
    images, labels = dataset
    for i in range(0, images.shape[0], batch_size):
        yield (jnp.asarray(images[i:i + batch_size], dtype=jnp.float32),
               jnp.asarray(labels[i:i + batch_size], dtype=jnp.int32))


# --- flax_mnist.py ---
class MLP(nn.Module):
    """Multi-layer perceptron approximation architecture."""

    hidden_dims: list[int]
    num_classes: int

    @nn.compact
    def __call__(self, x: JaxArray) -> JaxArray:
        for dim in self.hidden_dims:
            x = nn.relu(nn.Dense(dim)(x))
        return nn.Dense(self.num_classes)(x)


def compute_metrics(
    apply_fn: ApplyFn, params: PyTree, x: JaxArray, y: JaxArray
) -> Metrics:
    logits: JaxArray = apply_fn({"params": params}, x)
    loss: JaxScalar = optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()
    accuracy: JaxScalar = (jnp.argmax(logits, axis=-1) == y).mean()
    return loss.astype(jnp.float32), accuracy.astype(jnp.float32)


@functools.partial(jax.jit, donate_argnums=(0,))
def train_step(
    state: TrainState, x: JaxArray, y: JaxArray
) -> tuple[TrainState, JaxScalar, JaxScalar]:
    """Evaluates training loss function and accuracy."""

    def _compute_metrics(params: PyTree) -> Metrics:
        """Partially applies the metrics function for various parameters."""
        return compute_metrics(state.apply_fn, params, x, y)

    loss: JaxScalar
    accuracy: JaxScalar
    grads: PyTree
    (loss, accuracy), grads = jax.value_and_grad(
        _compute_metrics,
        has_aux=True,
    )(state.params)
    next_state: TrainState = state.apply_gradients(grads=grads)
    return next_state, loss, accuracy


def jit_eval_step(apply_fn: ApplyFn) -> Callable:
    """Generates the evaluation function."""

    @jax.jit
    def evaluate(params: PyTree, x: JaxArray, y: JaxArray) -> Metrics:
        return compute_metrics(apply_fn, params, x, y)

    return evaluate


def train_epoch(
    state: TrainState,
    batches: Iterator[BatchedExamples],
) -> tuple[TrainState, RunningMetrics]:
    metrics = RunningMetrics()
    for xb, yb in batches:
        state, loss, accuracy = train_step(state, xb, yb)
        metrics.update(float(loss), float(accuracy), xb.shape[0])
    return state, metrics


def evaluate(
    state: TrainState,
    batches: Iterator[BatchedExamples],
) -> RunningMetrics:
    metrics = RunningMetrics()
    eval_step: Callable = jit_eval_step(state.apply_fn)
    for xb, yb in batches:
        loss, accuracy = eval_step(state.params, xb, yb)
        metrics.update(float(loss), float(accuracy), xb.shape[0])
    return metrics



# scaffolding: main() reduced to its epoch loop; datasets/orbax/clu (HF streaming MNIST, checkpoints,
# TensorBoard writer) are cut. Stand-in data keeps MNIST's ragged final batches at batch_size=128:
# 60000 % 128 = 96 (train) and 10000 % 128 = 16 (test); here 3*128+96 and 2*128+16 rows.
_rng = np.random.default_rng(0)
train_dataset = (_rng.normal(size=(480, 784)), _rng.integers(0, 10, size=(480,)))
test_dataset = (_rng.normal(size=(272, 784)), _rng.integers(0, 10, size=(272,)))
batch_size = 128
epochs = 5
key = jax.random.PRNGKey(0)
num_classes = 10
num_pixels = 784
model = MLP(hidden_dims=[256], num_classes=num_classes)
initial_variables: dict[str, Any] = model.init(
    key, jnp.ones((1, num_pixels), jnp.float32)
)
state: TrainState = TrainState.create(
    apply_fn=model.apply,
    params=initial_variables["params"],
    tx=optax.adam(learning_rate=1e-3),
)
_calls = 0  # scaffolding
start_epoch = 1  # main(): restored_checkpoint.get("epoch", 0) + 1

for epoch in range(start_epoch, epochs):
    train_iter: Iterator[BatchedExamples] = make_huggingface_iterator(
        dataset=train_dataset,
        shuffle=True,
        data_key=jax.random.fold_in(key, epoch),
        batch_size=batch_size,
        shuffle_buffer_size=50_000,
    )
    train_iter_prefetched = prefetch(train_iter, size=2)

    state, metrics = train_epoch(state, train_iter_prefetched)
    _calls += 4  # scaffolding: 4 train batches per epoch

    eval_iter: Iterator[BatchedExamples] = make_huggingface_iterator(
        dataset=test_dataset,
        shuffle=False,
        batch_size=batch_size,
    )
    eval_iter_prefetched = prefetch(eval_iter, size=2)

    eval_metrics: RunningMetrics = evaluate(state, eval_iter_prefetched)
    _calls += 3  # scaffolding: 3 eval batches per epoch
    print(epoch, metrics.loss.mean, eval_metrics.loss.mean)

_report({"jit(train_step)", "jit(evaluate)"}, _calls)  # scaffolding
