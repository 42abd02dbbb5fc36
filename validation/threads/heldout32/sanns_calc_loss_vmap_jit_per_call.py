# source: https://github.com/smartwhatt/SaNNs/blob/0e564cae4685b2391a51b0e336ae57e7bd352e84/src/utils/loss/__init__.py
# expect: none
# runtime: COMPILES 2 CALLS 6
# why: calc_loss wraps vmap(jit(loss_fn)) anew on every call, but loss_fn is the same module-level function each time, so jit's cache is reused: one compile per label shape (integer labels, one-hot labels), none for the repeated calls.

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
import jax.numpy as np
from jax import grad, jit, vmap
import jax
import jax.random as random
import numpy as onp  # scaffolding


# src/utils/activations/{linear,relu,softmax}.py
def linear(x):
    return x


def relu(x):
    return np.maximum(0, x)


def softmax(x):
    return np.exp(x) / np.sum(np.exp(x - np.max(x, axis=1, keepdims=True)), axis=1, keepdims=True)


# src/utils/layers/dense.py
class Dense:
    def __init__(self, n_input, n_neuron, activation=linear, seed=12321, scale=0.01):
        self.key = random.PRNGKey(seed)
        self.n_input = n_input
        self.n_neuron = n_neuron

        self.w = scale * random.normal(self.key, (n_input, n_neuron))
        self.b = np.zeros((1, n_neuron))

        self.activation = jit(activation)

        self.forward = jit(self.forward)

    def forward(self, x):
        self.output = self.activation(np.dot(x, self.w) + self.b)

        return self.output

    def as_pytree(self):
        return [self.w, self.b]

    def __call__(self, x):
        return self.forward(x)


# src/utils/loss/categorical_cross_entropy.py
def categorical_cross_entropy(y_hat, y):
    # Clip the predicted values to avoid log(0)
    y_hat = np.clip(y_hat, 1e-15, 1 - 1e-15)

    # Calculate the loss for scalar samples
    if y_hat.ndim == 0:
        return -np.log(y_hat) * y - np.log(1 - y_hat) * (1 - y)

    # Calculate the loss for hot encoded values
    loss = -np.sum(y * np.log(y_hat))
    return loss


# src/utils/loss/__init__.py
def calc_loss(y_hat, y, loss_fn):
    batch_loss = vmap(jit(loss_fn))


    return np.mean(batch_loss(y_hat, y))


def spiral_data(samples, classes):  # scaffolding: stand-in for nnfs.datasets.spiral_data
    X = onp.zeros((samples * classes, 2), dtype="float32")
    y = onp.zeros(samples * classes, dtype="uint8")
    for class_number in range(classes):
        ix = range(samples * class_number, samples * (class_number + 1))
        r = onp.linspace(0.0, 1, samples)
        t = onp.linspace(class_number * 4, (class_number + 1) * 4, samples) + onp.random.randn(samples) * 0.2
        X[ix] = onp.c_[r * onp.sin(t * 2.5), r * onp.cos(t * 2.5)]
        y[ix] = class_number
    return X, y


# src/1_baseline.ipynb
data, label = spiral_data(100, 3)

layer1 = Dense(2, 5, activation=relu)
layer2 = Dense(layer1.n_neuron, 3, activation=softmax)

output = layer2(layer1(data))
label_encoded = jax.nn.one_hot(label, layer2.n_neuron)

n_calls = 0  # scaffolding
for _ in range(3):  # scaffolding: the notebook cell's loss lines, re-run three times
    loss = calc_loss(output, label, categorical_cross_entropy)
    loss_encoded = calc_loss(output, label_encoded, categorical_cross_entropy)
    n_calls += 2  # scaffolding
_report({"jit(categorical_cross_entropy)"}, n_calls)
