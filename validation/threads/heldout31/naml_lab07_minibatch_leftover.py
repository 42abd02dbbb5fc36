# source: https://github.com/mirkomanset/naml_exams/blob/b5af5510fadcda280a895939a1ee62e06045099d/labs/07_california_housing.ipynb
# expect: shape-churn at line 125
# runtime: COMPILES 4 CALLS 32
# why: The mini-batch loop steps range(0, n_samples, batch_size) over 12948 training rows, so every epoch ends with a 948-row batch and the jitted gradient grad_jit compiles a second time for it.

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
# cell 2
import numpy as np
import time
import jax.numpy as jnp
import jax
# (matplotlib, pandas, seaborn imports dropped: plotting cut, pandas not installed)
# scaffolding: stand-in for cells 4-21 (pandas read of the Colab sample california_housing_train.csv,
# dropping the capped median_house_value rows and normalising): the notebook's saved outputs show 16186
# rows x 9 columns remain; random normalised values of that shape stand in for them
data_normalized = type("_StandInFrame", (), {"to_numpy": lambda self: np.random.default_rng(0).normal(size=(16186, 9))})()  # scaffolding
# cell 23
np.random.seed(0)  # for reproducibility
data_normalized_np = data_normalized.to_numpy()
np.random.shuffle(data_normalized_np)

fraction_validation = 0.2
num_train = int(data_normalized_np.shape[0] * (1 - fraction_validation))
x_train = data_normalized_np[:num_train, :-1]
y_train = data_normalized_np[:num_train, -1:]
x_valid = data_normalized_np[num_train:, :-1]
y_valid = data_normalized_np[num_train:, -1:]
# cell 25
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


params = initialize_params([8, 5, 5, 1])
params
# cell 27
activation = jnp.tanh
activation = lambda x: jnp.maximum(0.0, x)


def ANN(x, params):
    layer = x.T
    num_layers = len(params) // 2 + 1
    weights = params[0::2]
    biases = params[1::2]
    for i in range(num_layers - 1):
        layer = jnp.dot(weights[i], layer) - biases[i]
        if i < num_layers - 2:
            layer = activation(layer)
    return layer.T


ANN(x_train, params)
x_train
# cell 29
def loss(x, y, params):
    error = ANN(x, params) - y
    return jnp.mean(error * error)
from tqdm import tqdm  # scaffolding: cell 34 imports tqdm.notebook's tqdm
# cell 37
# Hyperparameters
layers_size = [8, 20, 20, 1]
# Training options
num_epochs = 2  # scaffolding: 2000 in the notebook
learning_rate_max = 2e-1
learning_rate_min = 5e-2
learning_rate_decay = 2000
batch_size = 1000
########################################

params = initialize_params(layers_size)

grad = jax.jit(jax.grad(loss, argnums=2))
loss_jit = jax.jit(loss)
grad_jit = jax.jit(grad)

n_samples = x_train.shape[0]

history_train = list()
history_valid = list()
history_train.append(loss_jit(x_train, y_train, params))
history_valid.append(loss_jit(x_valid, y_valid, params))

t0 = time.time()
for epoch in tqdm(range(num_epochs)):
    learning_rate = max(
        learning_rate_min, learning_rate_max * (1 - epoch / learning_rate_decay)
    )
    
    perm = np.random.permutation(n_samples)
    for i in range(0, n_samples, batch_size):
        batch_idx = perm[i : i + batch_size]
        x_batch = x_train[batch_idx]
        y_batch = y_train[batch_idx]
        grads = grad_jit(x_batch, y_batch, params)

        for i in range(len(params)):
            params[i] -= learning_rate * grads[i]

    history_train.append(loss_jit(x_train, y_train, params))
    history_valid.append(loss_jit(x_valid, y_valid, params))

print("elapsed time: %f s" % (time.time() - t0))
print("loss train     : %1.3e" % history_train[-1])
print("loss validation: %1.3e" % history_valid[-1])

# (loss plot cut)
_report({"jit(loss)"}, num_epochs * -(-n_samples // batch_size) + 2 + 2 * num_epochs)  # scaffolding: grad_jit and loss_jit both compile under the name jit(loss); calls = grad_jit calls + loss_jit calls
