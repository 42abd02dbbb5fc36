# source: https://github.com/ghif/dl-jax101/blob/13740c2dcf6813f351c62ceb21bfbfd589b9e85e/2-mlp/2-feedforward-pure.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 200
# why: the jitted update is defined once, reads the module-level learning_rate that never changes, and is always called on the full 3000-point spiral with the same list-of-dicts params structure, so it compiles once for 200 iterations.
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


import types  # scaffolding


def _noop(*args, **kwargs):  # scaffolding
    return None  # scaffolding


_plot_lib = types.SimpleNamespace(set_default=_noop, plot_data=_noop, plot_model=_noop)  # scaffolding: the repo's plot_lib (matplotlib) as no-ops


# cell 2
import sys, os
sys.path.append(os.path.abspath(os.path.join(os.getcwd(), os.pardir)))

import jax
import jax.numpy as jnp
import math

# import plot_lib as pl  # scaffolding: matplotlib helpers, stood in above
pl = _plot_lib  # scaffolding
import importlib
# importlib.reload(pl)  # scaffolding


pl.set_default()
# cell 4
N = 1000  # num_samples_per_class
D = 2  # dimensions
C = 3  # num_classes
H = 100  # num_hidden_units
seed = 12345
key = jax.random.PRNGKey(seed)

# Creating synthetic data (spiral)
X = jnp.zeros((N * C, D))
y = jnp.zeros(N * C, dtype=jnp.int32)

X_list = []
y_list = []


key, subkey = jax.random.split(key)
for c in range(C):
    t = jnp.linspace(0, 1, N)
    inner_var = jnp.linspace(
        (2 * math.pi / C) * c,
        (2 * math.pi / C) * (2 + c),
        N
    ) + jax.random.normal(jax.random.fold_in(subkey, c), (N,)) * 0.2
    
    X_c = jnp.stack([t * jnp.sin(inner_var), t * jnp.cos(inner_var)], axis=1)
    y_c = jnp.full((N,), c, dtype=jnp.int32)
    
    X_list.append(X_c)
    y_list.append(y_c)

X = jnp.concatenate(X_list, axis=0)
y = jnp.concatenate(y_list, axis=0)

print("Shapes:")
print("X:", X.shape)
print("y:", y.shape)

pl.plot_data(X, y)
# cell 6


# Manual Initialization Function (Pure JAX)
def init_params(key, layers, input_dim):
    params = []
    keys = jax.random.split(key, len(layers))
    
    curr_dim = input_dim
    for i, (next_dim, k) in enumerate(zip(layers, keys)):
        w_key, b_key = jax.random.split(k)
        # Glorot/Xavier Initialization
        limit = jnp.sqrt(6 / (curr_dim + next_dim))
        w = jax.random.uniform(w_key, (curr_dim, next_dim), minval=-limit, maxval=limit)
        b = jnp.zeros((next_dim,))
        params.append({'w': w, 'b': b})
        curr_dim = next_dim
    return params
# cell 8
key, init_key = jax.random.split(key)
params = init_params(init_key, [H, C], D)

# Forward pass
def mlp_fn(params, x):
    for layer in params[:-1]: # Hidden layers with ReLU
        x = jax.nn.relu(jnp.dot(x, layer['w']) + layer['b'])
    return jnp.dot(x, params[-1]['w']) + params[-1]['b']
# cell 9
# plot model (before training)
pl.plot_model(X, y, lambda x: mlp_fn(params, x))
# cell 11
# Define loss and other helper functions
def xent_loss(logits, targets):
    log_probs = jax.nn.log_softmax(logits)
    loss = -jnp.mean(log_probs[jnp.arange(targets.shape[0]), targets])
    return loss

def loss_fn(params, x, y):
    logit_hat = mlp_fn(params, x)
    return xent_loss(logit_hat, y)

def accuracy_fn(params, x, y):
    logit_hat = mlp_fn(params, x)
    return jnp.mean(jnp.argmax(logit_hat, -1) == y)
# cell 12
# Test the xent_loss function
# Forward pass
logit_hat = mlp_fn(params, X)

# Compute loss
loss = xent_loss(logit_hat, y)
print(f"Loss: {loss}") 
# cell 15
learning_rate = 1e-1
epochs = 2000
epochs = 200  # scaffolding: 200 iterations instead of 2000

loss_history = []
acc_history = []
step_history = []

@jax.jit
def update(params, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    # Manual SGD Update
    new_params = jax.tree.map(lambda p, g: p - learning_rate * g, params, grads)
    return new_params, loss

for i in range(epochs):
    params, loss = update(params, X, y)
    loss_history.append(float(loss))
    
    if i % 100 == 0:
        acc = accuracy_fn(params, X, y)
        acc_history.append(float(acc))
        step_history.append(i)
        print(f'Iteration {i:4d}, Loss: {loss:.4f}, Accuracy: {acc:.4f}')
        
        # Wrap forward for visualization: plot_model expects a function f(x)
        pl.plot_model(X, y, lambda x: mlp_fn(params, x))


_report({"jit(update)"}, epochs)  # scaffolding
