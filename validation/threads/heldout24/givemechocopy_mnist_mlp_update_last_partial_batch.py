# source: https://github.com/givemechocopy/jax-mnist-mlp/blob/00f6366d3a23a4459725282c93c0e24fe25c8848/utils/training.py
# expect: shape-churn at line 124
# runtime: COMPILES 2 CALLS 6
# why: train slices the training set by batch_size without dropping the remainder, so the last slice of every epoch is smaller and the jitted update sees a second input shape and compiles again (2 compiles; 50000 MNIST images leave a last batch of 80 at batch size 128).
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


# ---- config.py ----  # scaffolding: file marker
import jax

config = {
    "key": jax.random.PRNGKey(42),
    "model_arch": [784, 256, 128, 10],
    "batch_size": 128,
    "epochs": 2,  # scaffolding: 2 instead of 10
    "learning_rate": 0.01
}

# ---- data/loader.py ----  # scaffolding: file marker
import numpy as np
# from torchvision import datasets  # scaffolding: torchvision is not installed; synthetic stand-in below

def get_mnist_data():
    rng = np.random.default_rng(0)  # scaffolding: 350 synthetic images instead of datasets.MNIST(train=True)
    X = rng.random((350, 28, 28), dtype=np.float32)  # scaffolding
    y = rng.integers(0, 10, size=350)  # scaffolding
    X = X.reshape(-1, 784)

    return X[:300], y[:300], X[300:], y[300:]  # scaffolding: 300/50 split instead of 50000/10000 (both leave a remainder with batch 128)


def get_mnist_test_data():
    rng = np.random.default_rng(1)  # scaffolding: 40 synthetic test images instead of datasets.MNIST(train=False)
    X_test = rng.random((40, 28, 28), dtype=np.float32)  # scaffolding
    y_test = rng.integers(0, 10, size=40)  # scaffolding
    X_test = X_test.reshape(-1, 784)
    return X_test, y_test

# ---- models/mlp.py ----  # scaffolding: file marker
import jax.numpy as jnp
from jax import random

def init_mlp_params(key, sizes):
    keys = random.split(key, len(sizes) - 1)
    return [(random.normal(k, (m, n)) * jnp.sqrt(2.0 / m), jnp.zeros(n))
            for k, m, n in zip(keys, sizes[:-1], sizes[1:])]

def mlp(params, x):
    for w, b in params[:-1]:
        x = jnp.dot(x, w) + b
        x = jnp.maximum(x, 0)  # ReLU
    w_last, b_last = params[-1]
    return jnp.dot(x, w_last) + b_last


# ---- utils/metrics.py ----  # scaffolding: file marker
import jax.numpy as jnp
import jax

def cross_entropy(params, x, y, model_fn):
    logits = model_fn(params, x)
    one_hot = jax.nn.one_hot(y, 10)
    return -jnp.mean(jnp.sum(one_hot * jax.nn.log_softmax(logits), axis=1))

def accuracy_fn(params, x, y, model_fn):
    pred = jnp.argmax(model_fn(params, x), axis=1)
    return jnp.mean(pred == y)


# ---- utils/optimizer.py ----  # scaffolding: file marker
import optax

def create_optimizer(learning_rate: float):
    return optax.adam(learning_rate)

# ---- utils/training.py ----  # scaffolding: file marker
import jax
import jax.numpy as jnp
import optax
from jax import value_and_grad
# from utils.metrics import cross_entropy, accuracy_fn  (defined above)  # scaffolding: flattened

def train(params, X_train, y_train, X_val, y_val, X_test, y_test, config):
    optimizer = config['optimizer']
    opt_state = optimizer.init(params)

    def loss_fn(p, x, y):
        return cross_entropy(p, x, y, config['model'])

    @jax.jit
    def update(params, opt_state, x, y):
        loss, grads = value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        params = optax.apply_updates(params, updates)
        return params, opt_state, loss

    loss_history = []
    val_acc_history = []
    test_acc_history = []

    for epoch in range(config['epochs']):
        for i in range(0, len(X_train), config['batch_size']):
            x_batch = jnp.array(X_train[i:i + config['batch_size']])
            y_batch = jnp.array(y_train[i:i + config['batch_size']])
            params, opt_state, loss = update(params, opt_state, x_batch, y_batch)

        val_acc = accuracy_fn(params, jnp.array(X_val), jnp.array(y_val), config['model'])
        val_loss = cross_entropy(params, jnp.array(X_val), jnp.array(y_val), config['model'])
        test_acc = accuracy_fn(params, jnp.array(X_test), jnp.array(y_test), config['model'])

        val_acc_history.append(float(val_acc))
        test_acc_history.append(float(test_acc))
        loss_history.append(float(val_loss))

        print(f"[Epoch {epoch+1}] Val Loss: {val_loss:.4f} | Val Acc: {val_acc:.4f} | Test Acc: {test_acc:.4f}")

    return params, loss_history, val_acc_history, test_acc_history

# ---- main.py ----  # scaffolding: file marker
import jax.numpy as jnp
# (config, data.loader, models.mlp, utils.*: defined above)  # scaffolding: flattened

def main():
    # 1. 데이터 로딩
    X_train, y_train, X_val, y_val = get_mnist_data()
    X_test, y_test = get_mnist_test_data()

    # 2. 모델 및 옵티마이저 설정
    config['model'] = mlp
    config['optimizer'] = create_optimizer(config['learning_rate'])

    # 3. 파라미터 초기화
    params = init_mlp_params(config['key'], config['model_arch'])

    # 4. 학습 수행
    params, loss_history, val_acc_history, test_acc_history = train(
        params, X_train, y_train, X_val, y_val, X_test, y_test, config
    )

    # 5. 최종 정확도 출력
    val_acc = accuracy_fn(params, jnp.array(X_val), jnp.array(y_val), config['model'])
    print(f"\n✅ Final Validation Accuracy: {val_acc:.4f}")

    test_acc = accuracy_fn(params, jnp.array(X_test), jnp.array(y_test), config['model'])
    print(f"🧪 Final Test Accuracy: {test_acc:.4f}")

    # 6. 학습 곡선 시각화
    # plot_training_curves(loss_history, val_acc_history, test_acc_history, save_path="logs/result.png")  # scaffolding: no plotting


if __name__ == "__main__":
    main()
    _report({"jit(update)"}, 6)  # scaffolding: 2 epochs x 3 batches (128, 128, 44)
