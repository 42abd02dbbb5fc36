# source: https://github.com/mirkomanset/naml_exams/blob/1474b16c4f33d7d43dd5835c3995c50d35666925/notebooks/AA_22_23/Exam_2023_09_06.ipynb
# expect: jit-in-loop-or-body at line 60
# runtime: COMPILES 5 CALLS 4
# why: SGD builds grad_fn = jax.jit(jax.grad(loss, argnums=2)) inside its body and the learning-rate sweep calls it 4 times with the same degree and shapes; each new jax.grad object is traced and compiled again, where a module-level jitted gradient would compile once.

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
# cell 18
import numpy as np
import jax.numpy as jnp
import jax
np.random.seed(42)
# cell 20
x = np.random.uniform(0, 1, 100)
eps = np.random.uniform(-0.2, 0.2, 100)
y = np.cos(4*np.pi*x) + eps

# plt.scatter(x, y)  (plot cut)
# cell 22
# ---- Polynomial Evaluation ----
def evaluate_polynomial(x, params):
    powers = jnp.array([x**i for i in range(len(params))])  # shape: (n+1, batch_size)
    return jnp.dot(params, powers)  # returns (batch_size,)

# ---- Loss Function (MSE) ----
def loss(x, y, params):
    y_pred = evaluate_polynomial(x, params)
    return jnp.mean((y - y_pred)**2)

# ---- Parameter Initialization in [-0.4, 0.4] ----
def initialize_params(n):
    return jnp.array(np.random.uniform(low=-0.4, high=0.4, size=n+1))

# ---- Stochastic Gradient Descent ----
def SGD(x_train, y_train, degree, learning_rate, num_epochs, batch_size):
    params = initialize_params(degree)
    n_samples = len(x_train)

    grad_fn = jax.jit(jax.grad(loss, argnums=2))
    loss_fn = jax.jit(loss)

    history = [loss_fn(x_train, y_train, params)]

    for epoch in range(num_epochs):
        idxs = np.random.choice(n_samples, batch_size, replace=False)
        x_batch = x_train[idxs]
        y_batch = y_train[idxs]

        grads = grad_fn(x_batch, y_batch, params)
        params = params - learning_rate * grads

        history.append(loss_fn(x_train, y_train, params))

    return params, history
# cell 26
etas = [0.0001, 0.001, 0.01, 0.1]  # Different learning rates
degree = 5
num_epochs = 30  # scaffolding: 1000 in the notebook
batch_size = 32


for eta in etas:
    params_learned, loss_history = SGD(
        x, y,
        degree=degree,
        learning_rate=eta,
        num_epochs=num_epochs,
        batch_size=batch_size
    )

# (plot cut)
_report({"jit(loss)"}, len(etas))  # scaffolding: calls = SGD calls
