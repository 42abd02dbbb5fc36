# source: https://github.com/smithlindsay/coding-ml-practice/blob/613127aca1fb3fae0fc617edb675de364478e295/jax.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 301
# why: The jitted loss_grad first sees parameters as NumPy float64 arrays plus a Python-float bias (init_params) and afterwards as JAX float32 arrays produced by the update, which looks like a dtype/weak-type change per step, but float64 NumPy inputs canonicalise to float32 and the bias stays weakly typed, so it compiles once.

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
# from __future__ import print_function  # scaffolding: a no-op in Python 3, and not allowed after the harness
import jax
import jax.numpy as jnp
import numpy as np

import random
import itertools

# based on colin raffel's blog post
# learn XOR with a nn
# single hidden layer, 3 neurons, tanh nonlinearity, cross-ent loss w/ sgd

# for the output of the net
def sigmoid(x):
    return 1 / (1 + jnp.exp(-x))

def net(params, x):
    w1, b1, w2, b2 = params
    hidden = jnp.tanh(jnp.dot(w1, x) + b1)
    return sigmoid(jnp.dot(w2, hidden) + b2)

def ce_loss(params, x, y):
    y_hat = net(params, x)
    cross_entropy = -y*jnp.log(y_hat) - (1 - y)*jnp.log(1 - y_hat)
    return cross_entropy

def test_all_inputs(inputs, params):
    # threshold the output since it is a probability and we want a class (0 or 1)
    preds = [int(net(params, inp) > 0.5) for inp in inputs]
    for inp, out in zip(inputs, preds):
        print(inp, '->', out)
    return (preds == [np.bitwise_xor(*inp) for inp in inputs])

inputs = jnp.array([[0, 0], [0, 1], [1, 0], [1, 1]])
# when init params, do it randomly before training -> no need for jax (no compiliation or derivatives)
def init_params():
    return [
        np.random.randn(3, 2),   #w1
        np.random.randn(3),      #b1
        np.random.randn(3),      #w2
        np.random.randn(),       #b2
    ]

np.random.seed(0)  # scaffolding
lr = 1.
params = init_params()  # scaffolding: cells 5-6 (the un-jitted training run) leave params trained; here they are fresh
x = inputs[np.random.choice(inputs.shape[0])]  # scaffolding: x, y as left by cell 5's loop
y = np.bitwise_xor(*x)  # scaffolding

loss_grad = jax.jit(jax.grad(ce_loss))

# run once to trigger jit comp
loss_grad(params, x, y)
# %timeit loss_grad(params, x, y)  # scaffolding: timing line dropped

# train using jit
params = init_params()

for n in itertools.count():
    x = inputs[np.random.choice(inputs.shape[0])]
    y = np.bitwise_xor(*x)
    grads = loss_grad(params, x, y)
    params = [param - grad * lr for grad, param in zip(grads, params)]

    if n % 100 == 0:
        print(f'iter {n}')
        if test_all_inputs(inputs, params):
            break
    if n >= 299:  # scaffolding: the notebook trains until XOR is learned
        break
_report({"jit(ce_loss)"}, 1 + n + 1)
