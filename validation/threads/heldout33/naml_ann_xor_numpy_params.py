# source: https://github.com/NiccoloSalvi/naml/blob/8029989eaf4899d0583049ccdf7570696867b251/ANN_XOR.ipynb
# expect: none
# runtime: COMPILES 3 CALLS 600
# why: NAML course lab notebook (XOR network): jitted loss/grad functions called in a 200-epoch loop with a list of NumPy float64 arrays updated in place (params[i] -= ...); the arrays keep their shape and dtype, so each function compiles once.

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
import numpy as np
import jax.numpy as jnp
import jax
import time

# ---- ANN_XOR.ipynb cell 5
inputs = np.array([[0, 0],
                   [0, 1],
                   [1, 0],
                   [1, 1]])
outputs = np.array([[0],
                    [1],
                    [1],
                    [0]])
# ---- cell 9
n1, n2, n3, n4 = 2, 4, 3, 1
# ---- cell 11 (commented-out alternatives dropped)
np.random.seed(0) # for reproducibility

# W2 is (4 x 2)
W2 = np.random.randn(n1 * n2).reshape(n2, n1) # alternately: W2 = np.random.randn(n2, n1)
# b2 is (n2 x 1)
b2 = np.zeros(n2).reshape(n2, 1) # alternately: b2 = np.zeros((n2, 1))

# W3 is (3 x 4)
W3 = np.random.randn(n2 * n3).reshape(n3, n2)
# b3 is (3 x 1)
b3 = np.zeros(n3).reshape(n3, 1)

# W4 is (1 x 3)
W4 = np.random.randn(n3 * n4).reshape(n4, n3)
# b4 is (1 x 1)
b4 = np.zeros(n4).reshape(n4, 1)
params = [W2, b2, W3, b3, W4, b4]
# ---- cell 13
def ANN(x, params):
    W2, b2, W3, b3, W4, b4 = params
    # sigma = lambda y : jnp.tanh(y)

    activation_fn_layer1 = x.T
    activation_fn_layer2 = jnp.tanh(W2 @ activation_fn_layer1 + b2)
    activation_fn_layer3 = jnp.tanh(W3 @ activation_fn_layer2 + b3)
    activation_fn_layer4 = jnp.tanh(W4 @ activation_fn_layer3 + b4)

    # scale the result
    activation_fn_layer4 = (1.0 + activation_fn_layer4) / 2.0

    return activation_fn_layer4.T
# ---- cell 17
def loss_quadratic(x, y, params):
    error = ANN(x, params) - y
    return jnp.sum(error ** 2)

loss_quadratic(inputs, outputs, params)
# ---- cell 19
def loss_crossentropy(x, y, params):
    y_hat = ANN(x, params)
    return -jnp.sum(y * jnp.log(y_hat) + (1 - y) * jnp.log(1 - y_hat))

loss_crossentropy(inputs, outputs, params)
# ---- cell 21
loss_quad_jit = jax.jit(loss_quadratic)
grad_quad_jit = jax.jit(jax.grad(loss_quadratic, argnums = 2))
loss_Xent_jit = jax.jit(loss_crossentropy)
grad_Xent_jit = jax.jit(jax.grad(loss_crossentropy, argnums = 2))
# ---- cell 23
grad = grad_Xent_jit
learning_rate = 0.1
num_epochs = 200  # scaffolding: the notebook runs 2000 epochs

history_quad = list()
history_Xent = list()

t0 = time.time()

for epoch in range(num_epochs):
    grads = grad(inputs, outputs, params)

    for i in range(len(params)):
        params[i] -= learning_rate * grads[i]

    history_quad.append(loss_quad_jit(inputs, outputs, params))
    history_Xent.append(loss_Xent_jit(inputs, outputs, params))

print("Execution time: %1.2e" %(time.time() - t0))
# (plotting dropped)
_report({"jit(loss_crossentropy)", "jit(loss_quadratic)"}, 3 * num_epochs)  # scaffolding
