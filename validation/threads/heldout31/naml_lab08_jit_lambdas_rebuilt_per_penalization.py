# source: https://github.com/Dr4k3z/naml/blob/853bc6c097be73346d1619809c64cccd29a259ca/Lab08/regularization.ipynb
# expect: jit-in-loop-or-body at line 123
# runtime: COMPILES 15 CALLS 5
# why: train(penalization) builds loss_jit and grad_jit as jax.jit of fresh lambdas that close over penalization, and is called for 5 penalization values, so each call traces and compiles them again (3 compiles per call) instead of passing penalization as an argument to one jitted loss.

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
# cell 1
import time

import jax
import jax.numpy as jnp
import numpy as np
# (matplotlib, pandas and seaborn imports dropped: plots cut, pandas not installed)
# scaffolding: stand-in for cells 3-20 (pandas read of UCI auto-mpg, dropna, normalisation): 392 complete
# rows x 8 columns, as in the real data set, of random normalised values
data_normalized = type("_StandInFrame", (), {"to_numpy": lambda self: np.random.default_rng(0).normal(size=(392, 8))})()  # scaffolding
# cell 22
data_normalized_np = data_normalized.to_numpy()
np.random.seed(0)
np.random.shuffle(data_normalized_np)

fraction_validation = 0.2
num_train = int(data_normalized_np.shape[0] * (1 - fraction_validation))
x_train = data_normalized_np[:num_train, 1:]
y_train = data_normalized_np[:num_train, :1]
x_valid = data_normalized_np[num_train:, 1:]
y_valid = data_normalized_np[num_train:, :1]

print(f"train set size: {x_train.shape[0]}")
print("validation set size: {x_valid.shape[0]}")
# cell 24
def initialize_params(layers_size):
    np.random.seed(0)  # for reproducibility
    params = list()
    for i in range(len(layers_size) - 1):
        W = np.random.randn(layers_size[i + 1], layers_size[i]) * np.sqrt(
            2 / (layers_size[i + 1] + layers_size[i])
        )
        b = np.zeros((layers_size[i + 1], 1))
        params.append(W)
        params.append(b)
    return params
# cell 26
activation = jax.nn.relu


def ANN(x, params):
    layer = x.T
    num_layers = int(len(params) / 2 + 1)
    weights = params[0::2]
    biases = params[1::2]
    for i in range(num_layers - 1):
        layer = weights[i] @ layer - biases[i]
        if i < num_layers - 2:
            layer = activation(layer)
    return layer.T


params = initialize_params([7, 10, 1])
ANN(x_train[:10, :], params)
# cell 28
def MSE(x, y, params):
    error = ANN(x, params) - y
    return jnp.mean(error * error)


params = initialize_params([7, 10, 1])
print(MSE(x_train, y_train, params))
# cell 30
def MSW(params):
    weights = params[::2]
    partial_sum = 0.0
    n_weights = 0

    for w in weights:
        partial_sum += jnp.sum(w**2)
        n_weights += w.shape[0] * w.shape[1]

    return partial_sum / n_weights

def loss(x, y, params, penalization):
    return MSE(x, y, params) + penalization * MSW(params)


print(MSW(params))
print(loss(x_train, y_train, params, 1.0))
# cell 36
# Hyperparameters
layers_size = [7, 20, 20, 1]
# Training options
num_epochs = 30  # scaffolding: 5000 in the notebook
learning_rate_max = 1e-1
learning_rate_min = 5e-3
learning_rate_decay = 1000
batch_size = 100
alpha = 0.9

params = initialize_params(layers_size)

def train(penalization):
    loss_jit = jax.jit(lambda x,y,params: loss(x,y,params,penalization))
    grad_jit = jax.jit(jax.grad(lambda x,y,params: loss(x,y,params,penalization), argnums=2))
    MSE_jit = jax.jit(MSE)
    MSW_jit = jax.jit(MSW)

    n_samples = x_train.shape[0]

    history_loss_train = list()
    history_loss_valid = list()
    history_MSE_train = list()
    history_MSE_valid = list()
    history_MSW = list()

    def dump():
        history_loss_train.append(loss_jit(x_train, y_train, params))
        history_loss_valid.append(loss_jit(x_valid, y_valid, params))
        history_MSE_train.append(MSE_jit(x_train, y_train, params))
        history_MSE_valid.append(MSE_jit(x_valid, y_valid, params))
        history_MSW.append(MSW_jit(params))

    dump()
    # cb = Callback(refresh_rate=500)

    velocity = [0.0 for i in range(len(params))]
    for epoch in range(num_epochs):
        learning_rate = max(
            learning_rate_min, learning_rate_max * (1 - epoch / learning_rate_decay)
        )
        idxs = np.random.choice(n_samples, batch_size)
        grads = grad_jit(x_train[idxs, :], y_train[idxs, :], params)

        for i in range(len(params)):
            velocity[i] = alpha * velocity[i] - learning_rate * grads[i]
            params[i] += velocity[i]

        dump()
        # cb(epoch)
    # cb.draw()

    print(f"loss (train     ): {history_loss_train[-1]:1.3e}")
    print(f"loss (validation): {history_loss_valid[-1]:1.3e}")
    print(f"MSE  (train     ): {history_MSE_train[-1]:1.3e}")
    print(f"MSE  (validation): {history_MSE_valid[-1]:1.3e}")

    return {
        "MSE_train": history_MSE_train[-1],
        "MSE_valid": history_MSE_valid[-1],
        "MSW": history_MSW[-1],
    }
# cell 38
results = {
    "MSE_train": list(),
    "MSE_valid": list(),
    "MSW": list(),
}

pen_values = np.arange(0, 2.1, 0.5)
for p in pen_values:
    print(f"training for p = {p:f}...")
    res = train(p)
    results["MSE_train"].append(res["MSE_train"])
    results["MSE_valid"].append(res["MSE_valid"])
    results["MSW"].append(res["MSW"])
_report({"jit(<lambda>)"}, len(pen_values))  # scaffolding: calls = train() calls
