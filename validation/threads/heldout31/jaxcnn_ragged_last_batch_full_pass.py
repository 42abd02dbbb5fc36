# source: https://github.com/rudraditya21/jax-cnn-examples/blob/93cf57f1b76b393ed9d2f6fb7099741e09387d11/main.py
# expect: shape-churn at line 132
# runtime: COMPILES 2 CALLS 4
# why: With a full pass (--max-steps -1 -> None) the torch DataLoader (no drop_last) yields a smaller last batch, so the jitted loss_and_grads sees a new batch shape at the end of the epoch and compiles a second time.

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

import torch
from torch.utils.data import DataLoader, TensorDataset  # scaffolding
from jax.example_libraries import stax  # scaffolding


def _one_hot(labels, num_classes: int):
    import jax.numpy as jnp

    return jnp.eye(num_classes, dtype=jnp.float32)[labels]


def lenet1(num_classes: int = 10):  # scaffolding: models/lenet.py
    return stax.serial(
        stax.Conv(4, (5, 5), padding="VALID"),
        stax.Tanh,
        stax.AvgPool((2, 2), strides=(2, 2), padding="VALID"),
        stax.Conv(12, (5, 5), padding="VALID"),
        stax.Tanh,
        stax.AvgPool((2, 2), strides=(2, 2), padding="VALID"),
        stax.Flatten,
        stax.Dense(num_classes),
    )


def train_model(batch_size, epochs, learning_rate, max_steps, resize_to, seed):  # (CLI arguments trimmed)
    import jax
    import jax.numpy as jnp
    import numpy as np

    g = torch.Generator().manual_seed(0)  # scaffolding: stand-in for MNIST (no drop_last, as in datasets/mnist.py)
    data = TensorDataset(torch.randn(200, 1, 28, 28, generator=g), torch.randint(0, 10, (200,), generator=g))
    train_loader = DataLoader(data, batch_size=batch_size, shuffle=True)
    eval_loader = DataLoader(data, batch_size=batch_size, shuffle=False)
    num_classes = 10

    init_fun, apply_fun = lenet1(num_classes=num_classes)
    rng = jax.random.PRNGKey(seed)
    rng, init_rng = jax.random.split(rng)

    # Infer input shape from one batch.
    sample_x, _ = next(iter(train_loader))
    sample_np = sample_x.numpy()
    if sample_np.ndim != 4:
        raise ValueError(f"Expected 4D input (NCHW), got shape {sample_np.shape}")
    sample_np = np.transpose(sample_np, (0, 2, 3, 1))
    input_shape = sample_np.shape

    out_shape, params = init_fun(init_rng, input_shape)

    def _to_array(batch):
        imgs, labels = batch
        x = imgs.numpy()
        if resize_to is not None:
            import torch.nn.functional as F

            # Upsample NCHW to desired spatial size for models expecting larger inputs.
            x_tensor = torch.from_numpy(x)
            x_tensor = F.interpolate(
                x_tensor,
                size=resize_to,
                mode="bilinear",
                align_corners=False,
            )
            x = x_tensor.numpy()
        x = np.transpose(x, (0, 2, 3, 1))  # NCHW -> NHWC
        y = labels.numpy().astype(np.int32)
        return x, y

    @jax.jit
    def loss_and_grads(p, rng_key, x_np, y_np):
        x = jnp.asarray(x_np)
        y = jnp.asarray(y_np)
        onehot = _one_hot(y, num_classes)

        def forward(params):
            logits = apply_fun(params, x, rng=rng_key)
            log_probs = logits - jax.scipy.special.logsumexp(logits, axis=-1, keepdims=True)
            loss = -jnp.mean(jnp.sum(onehot * log_probs, axis=-1))
            preds = jnp.argmax(logits, axis=-1)
            acc = jnp.mean(preds == y)
            return loss, acc

        (loss, acc), grads = jax.value_and_grad(forward, has_aux=True)(p)
        return loss, acc, grads

    @jax.jit
    def sgd_update(p, g):
        return jax.tree_util.tree_map(lambda param, grad: param - learning_rate * grad, p, g)

    history: list[tuple[int, float, float, float]] = []
    start_time = time.perf_counter()

    for epoch in range(epochs):
        train_loss = 0.0
        train_acc = 0.0
        steps = 0
        for step, batch in enumerate(train_loader):
            if max_steps is not None and step >= max_steps:
                break
            rng, step_rng = jax.random.split(rng)
            x_np, y_np = _to_array(batch)
            loss, acc, grads = loss_and_grads(params, step_rng, x_np, y_np)
            params = sgd_update(params, grads)
            train_loss += float(loss)
            train_acc += float(acc)
            steps += 1

        train_loss /= max(1, steps)
        train_acc = (train_acc / max(1, steps)) * 100.0
    return steps


steps = train_model(batch_size=64, epochs=1, learning_rate=1e-3, max_steps=None, resize_to=None, seed=0)  # scaffolding
_report({"jit(loss_and_grads)"}, steps)
