# source: https://github.com/IPL-UV/jaxkern/blob/6e981a15594032cb887f7355e9c751056f80ccf5/notebooks/uncategorized/jax_regression.ipynb
# expect: none
# runtime: COMPILES 2 CALLS 202
# why: make_loss_n_grad builds jax.jit(jax.vmap(...)) wrappers (and a jit of a jit of grad) inside a function body, but it is called once and the returned loss and grad functions are reused for all 100 gradient-descent steps with same-shaped inputs, so each compiles once.

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
# (notebook notebooks/uncategorized/jax_regression.ipynb flattened: cells 0, 3, 13, 26-30; plotting cut)
# cell 0
import numpy as onp
import jax
import jax.numpy as jnp
from jax import grad, jit, vmap
from jax import random
# cell 3
#@title 1D Data

rng_key = random.PRNGKey(10)

n_samples, n_features = 100, 1

# generate X
X = random.normal(rng_key, shape=(n_samples, n_features))

# generate true w
true_w = random.normal(rng_key+1, shape=(n_features,))
print("True Weights: ", true_w)
# generate y = Xw + eps
eps = 0.5
y_true = jnp.dot(X, true_w) + eps * random.normal(rng_key+2, shape=(n_samples,))

X_plot = jnp.linspace(X.min(), X.max(), 1_000)[:, None]
print(X.shape, X_plot.shape, y_true.shape)
# cell 26
# initialize params
def init_params(x):
    return {'w': jnp.ones(len(x)), 'lambda': 0.01 * jnp.ones((1,))}

params = init_params(X[0, :])
print(params)
# cell 27
from typing import Callable, Dict

# Linear Function
@jax.jit
def linear_model(params, x):
    """"""
    return jnp.dot(params['w'], x) #+ params['b']

# MSE Loss Function
@jax.jit
def l2_squared_loss(
    params,
    x,
    y,
    l2=0.01):
    """calculates the squared loss"""
    # output of model
    out = linear_model(params, x)

    # calculate the squared loss
    se = jnp.power(out - y, 2)

    # add l2 regularization
    # print(jnp.square(jnp.linalg.norm(params['w'], 2)))
    reg = l2 * jnp.square(jnp.linalg.norm(params['w'], 2))
    # print(reg)
    return se + reg
# cell 28
def make_loss_n_grad(loss_func, params, X, y_true, test=False, jitted=True):

    # =========================
    # Loss Function
    # =========================

    # vectorize loss function, w.r.t. inputs
    if jitted == True:
        loss = jax.jit(jax.vmap(loss_func, in_axes=(None, 0, 0), out_axes=0))
    else:
        loss = jax.vmap(loss_func, in_axes=(None, 0, 0), out_axes=0)

    if test == True:
        # test loss function, w.r.t. multiple inputs
        nloss = loss(params, X, y_true)

        # mean squared loss
        print(jnp.mean(nloss))
    
    # =========================
    # Grad Loss Function
    # =========================
    
    # grad_loss = jax.grad(l2_squared_loss, argnums=(0))
    if jitted:
        # create grad function from loss
        grad_loss = jax.jit(jax.grad(loss_func, argnums=(0)))

        # vectorize grad_loss
        grad_loss = jax.jit(jax.vmap(grad_loss, in_axes=(None, 0, 0)))
    else:
        # create grad function from loss
        grad_loss = jax.grad(loss_func, argnums=(0))

        # vectorize grad_loss
        grad_loss = jax.vmap(grad_loss, in_axes=(None, 0, 0))
    

    if test == True:
        # gradients
        iloss = grad_loss(params, X, y_true)

        print(jnp.mean(iloss['w']))
    return loss, grad_loss
# cell 29
# init params
params = init_params(X[0, :])
print("Params:", params)
# create loss functions
loss, grad_loss = make_loss_n_grad(l2_squared_loss, params, X, y_true, test=True)
# cell 30
losses = []
alpha = 0.1
iterations = 100

for _ in range(iterations):
    
    # calculate the loss
    iloss = loss(params, X, y_true)
    iloss = jnp.mean(iloss)
    
    losses.append(iloss)

    # calculate the gradients of loss
    grad_losses = grad_loss(params, X, y_true)

    # average gradients over batch, update params
    params['w'] = params['w'] - alpha * jnp.mean(grad_losses['w'], axis=0)
    # print(iloss, jnp.mean(grad_losses['w'], axis=0))
print(params)
_report({"jit(l2_squared_loss)"}, 2 * (iterations + 1))  # scaffolding: loss and grad_loss, one test call each plus 100 steps
