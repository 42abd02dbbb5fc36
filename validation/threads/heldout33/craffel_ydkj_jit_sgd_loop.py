# source: https://github.com/craffel/jax-tutorial/blob/b6c3cc887ba3a37ffe89d28b804c9fa38328920d/you-don-t-know-jax.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 1002
# why: Same tutorial, single-example SGD with jax.jit(jax.grad(loss)): params start as NumPy arrays plus a Python-float bias, but here the bias gradient stays weak-typed, so every later call matches the first trace: one compile over ~1000 calls.

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
import random
import itertools

import jax
import jax.numpy as np
# Current convention is to import original numpy as "onp"
import numpy as onp

# (`from __future__ import print_function`, placed after other imports in the notebook, is a
#  SyntaxError on Python 3 and is dropped)
onp.random.seed(0)  # scaffolding: fixes the random run so the loop length is reproducible

# ---- cell 3
# Sigmoid nonlinearity
def sigmoid(x):
    return 1 / (1 + np.exp(-x))

# Computes our network's output
def net(params, x):
    w1, b1, w2, b2 = params
    hidden = np.tanh(np.dot(w1, x) + b1)
    return sigmoid(np.dot(w2, hidden) + b2)

# Cross-entropy loss
def loss(params, x, y):
    out = net(params, x)
    cross_entropy = -y * np.log(out) - (1 - y)*np.log(1 - out)
    return cross_entropy

# Utility function for testing whether the net produces the correct
# output for all possible inputs
def test_all_inputs(inputs, params):
    predictions = [int(net(params, inp) > 0.5) for inp in inputs]
    for inp, out in zip(inputs, predictions):
        print(inp, '->', out)
    return (predictions == [onp.bitwise_xor(*inp) for inp in inputs])
# ---- cell 5
def initial_params():
    return [
        onp.random.randn(3, 2),  # w1
        onp.random.randn(3),  # b1
        onp.random.randn(3),  # w2
        onp.random.randn(),  #b2
    ]
# ---- cell 7 (setup part; the un-jitted training loop is dropped)
learning_rate = 1.
# All possible inputs
inputs = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])
# ---- cell 9 (the %timeit lines are dropped)
loss_grad = jax.jit(jax.grad(loss))
# Run once to trigger JIT compilation
params = initial_params()  # scaffolding: cell 9 reuses params trained in cell 7
x = inputs[onp.random.choice(inputs.shape[0])]  # scaffolding: x, y left over from cell 7
y = onp.bitwise_xor(*x)  # scaffolding
loss_grad(params, x, y)
# ---- cell 11
params = initial_params()

for n in itertools.count():
    x = inputs[onp.random.choice(inputs.shape[0])]
    y = onp.bitwise_xor(*x)
    grads = loss_grad(params, x, y)
    params = [param - learning_rate * grad
              for param, grad in zip(params, grads)]
    if not n % 100:
        print('Iteration {}'.format(n))
        if test_all_inputs(inputs, params):
            break
    if n >= 1000:  # scaffolding: cap the open-ended loop
        break
_report({"jit(loss)"}, n + 2)  # scaffolding: the warm-up call plus the loop
