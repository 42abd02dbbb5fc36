# source: https://github.com/JRowbottomGit/Deep-BSDE-Solver/blob/64a8c5542e1a88b37090ed6277cd405a9a3e22f5/ODE.py
# expect: none
# runtime: COMPILES 2 CALLS 303
# why: grad_loss = jit(grad(loss, 0)) wraps an already-jitted loss and is built once outside the training loop; the inner jit is inlined, so the loss compiles once for the direct calls and once for grad_loss, and no step recompiles.

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

#implement NN
def sigmoid(x):
    return 1./(1. + np.exp(-x))

def f(params, x):
    w0 = params[:10]
    b0 = params[10:20]
    w1 = params[20:30]
    b1 = params[30]
    x = sigmoid(x*w0 + b0)
    x = sigmoid(np.sum(x*w1) + b1)
    return x

#initialise NN
from jax import random
key = random.PRNGKey(0)
params = random.normal(key, shape=(31,))

#grad of NN
from jax import grad
dfdx = grad(f, 1)

#inputs
inputs = np.linspace(-2., 2., num=401)

#vectorise
from jax import vmap
f_vect = vmap(f, (None, 0))
dfdx_vect = vmap(dfdx, (None, 0))

#jit - for XLA on GPU
from jax import jit
@jit
def loss(params, inputs):
    # transition: gradNN - ODE
    eq = dfdx_vect(params, inputs) + 2.*inputs*f_vect(params, inputs)
    #initial conditions
    ic = f(params, 0.) - 1.
    return np.mean(eq**2) + ic**2

#grad loss
grad_loss = jit(grad(loss, 0))

#parameters
epochs = 300  # scaffolding: 1000 epochs cut to 300
learning_rate = 0.1
momentum = 0.99
velocity = 0.

n_calls = 0  # scaffolding
#training
for epoch in range(epochs):
    if epoch % 100 == 0:
        print('epoch: %3d loss: %.6f' % (epoch, loss(params, inputs)))
        n_calls += 1  # scaffolding
    gradient = grad_loss(params + momentum*velocity, inputs)
    n_calls += 1  # scaffolding
    velocity = momentum*velocity - learning_rate*gradient
    params += velocity
_report({"jit(loss)"}, n_calls)
