# source: https://github.com/JojiJoseph/Neural-Networks-with-JAX/blob/447bb703c03f71cb7d2e29b46270230bb579474f/mnist_clean.py
# expect: none
# runtime: COMPILES 1 CALLS 16
# why: jax.jit(update) is written inside the batch loop, but it wraps the same module-level update each time and every batch has the same shape and dtype, so update compiles once for all 16 calls.
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



import numpy as np
import jax.numpy as jnp
import jax
from jax import grad, jit, vmap
# import sklearn  # scaffolding: sklearn not installed
# from sklearn.model_selection import train_test_split  # scaffolding
# from sklearn.datasets import fetch_openml  # scaffolding


def fetch_openml(name, version=1, as_frame=False, return_X_y=True):  # scaffolding: 640 random 'digits' instead of 70000 (80% = 512 = 8 batches of 64, like 56000 = 875 x 64)
    rs = np.random.RandomState(0)  # scaffolding
    return rs.randint(0, 256, (640, 784)).astype(np.float64), rs.randint(0, 10, 640).astype(str).astype(object)  # scaffolding


def train_test_split(X, y, test_size=0.2):  # scaffolding: stand-in for sklearn's
    n_test = int(round(len(X) * test_size))  # scaffolding
    idx = np.random.permutation(len(X))  # scaffolding
    return X[idx[n_test:]], X[idx[:n_test]], y[idx[n_test:]], y[idx[:n_test]]  # scaffolding
import time


# Layers
def linear(W, b, x):
    return jnp.dot(W, x) + b

def relu(x):
    return jnp.maximum(0, x)

def softmax(x):
    return jnp.exp(x) / (jnp.sum(jnp.exp(x)) + 1e-9)

def categorical_cross_entropy(y, y_hat, n_classes=10, one_hot=True):
    if one_hot:
        return -jnp.sum(y * jnp.log(y_hat))
        
    else:
        y = jax.nn.one_hot(y, n_classes) 
        return -jnp.sum(y * jnp.log(y_hat))

# Define the model
def model(params, x):
    x = linear(params['W1'], params['b1'], x)
    x = relu(x)
    x = linear(params['W2'], params['b2'], x)
    x = relu(x)
    x = linear(params['W3'], params['b3'], x)
    x = softmax(x)
    return x

# Define the loss function
def loss_fn(params, x, y):
    y_hat = vmap(model, in_axes=[None, 0])(params, x)
    return categorical_cross_entropy(y, y_hat, one_hot=False) / float(y.shape[0])

# Define the update function
def update(params, x, y, lr):
    grads = jax.grad(loss_fn, argnums=(0, ))(params, x, y)
    params = jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads[0])
    return params

X, y = fetch_openml('mnist_784', version=1, as_frame=False, return_X_y=True)
y = np.array(list(map(int, y)))

X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2)


X_train = X_train.astype(np.float32) / 255.
X_test = X_test.astype(np.float32) / 255.


# Create params 
params = {
    "W1": np.random.normal(0., 0.1, (128, 28*28)),
    "b1": np.random.normal(0., 0.1, (128, )),
    "W2": np.random.normal(0., 0.1, (128, 128)),
    "b2": np.random.normal(0., 0.1, (128, )),
    "W3": np.random.normal(0., 0.1, (10, 128)),
    "b3": np.random.normal(0., 0.1, (10, )),
}


def accuracy(params, x, y):
    y_hat = vmap(model, in_axes=[None, 0])(params, x)
    return jnp.mean(jnp.argmax(y_hat, axis=1) == y)



# Train the model
start_time = time.time()
for epoch in range(2):  # scaffolding: 20 epochs in the original
    for i in range(0, len(X_train), 64):
        X_batch = X_train[i:i+64]
        y_batch = y_train[i:i+64]
        params = jax.jit(update)(params, X_batch, y_batch, 1e-3)
    print(f"Epoch {epoch}, test accuracy: {accuracy(params, X_test, y_test)}")
end_time = time.time()
print("Time taken: ", end_time - start_time, " seconds")

# Test if the inference is working

X_batch = X_test[:10]
y_batch = y_test[:10]

# import matplotlib.pyplot as plt  # scaffolding: matplotlib not installed


class plt:  # scaffolding: stand-in for matplotlib.pyplot
    subplots = subplot = imshow = title = show = staticmethod(lambda *a, **k: None)  # scaffolding
plt.subplots(2, 5, figsize=(10, 5))
for i, (X_img, y_img) in enumerate(zip(X_batch, y_batch)):
    plt.subplot(2, 5, i+1)
    plt.imshow(X_img.reshape(28, 28), cmap='gray')
    plt.title(f"Label: {y_img} \n Prediction: {jnp.argmax(model(params, X_img))}")
plt.show()
_report({"jit(update)"}, 16)  # scaffolding: 2 epochs x 8 batches
