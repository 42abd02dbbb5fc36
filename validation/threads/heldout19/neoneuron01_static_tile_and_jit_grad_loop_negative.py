# source: https://github.com/NeoNeuron/jax_tutorial/blob/main/notebooks/01_jax_basics.ipynb
# expect: none
# runtime: COMPILES 2 CALLS 21
# why: repeat_n keeps the tile count static (1 compile), and jax.jit(jax.grad(loss)) is built once and called in the training loop (1 compile for 20 calls; loss is also called eagerly for logging).
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

import jax
import jax.numpy as jnp
import numpy as np

# Enable 64-bit globally (useful for scientific computing)
jax.config.update('jax_enable_x64', True)

# static_argnums: treat an arg as compile-time constant (re-traces for each value)
@jax.jit
def add_n(x, n):
    return x + n

# This FAILS if n controls array shape or Python branching — use static_argnums instead:
from functools import partial

@partial(jax.jit, static_argnums=(1,))
def repeat_n(x, n):  # n is now a compile-time constant
    return jnp.tile(x, n)

print(repeat_n(jnp.array([1, 2, 3]), 3))

# Generate noisy data from a known quadratic
key = jax.random.PRNGKey(0)
x_data = jnp.linspace(-3, 3, 50)
true_params = jnp.array([2.0, -1.0, 0.5])   # a=2, b=-1, c=0.5
noise = 0.3 * jax.random.normal(key, x_data.shape)
y_data = true_params[0]*x_data**2 + true_params[1]*x_data + true_params[2] + noise

def predict(params, x):
    a, b, c = params
    return a*x**2 + b*x + c

def loss(params):
    preds = predict(params, x_data)
    return jnp.mean((preds - y_data)**2)

# JIT-compile gradient computation
grad_loss = jax.jit(jax.grad(loss))

params = jnp.zeros(3)   # start at [0, 0, 0]
lr = 0.05
losses = []

for step in range(20):  # scaffolding: was range(200)
    g = grad_loss(params)
    params = params - lr * g
    losses.append(float(loss(params)))

print(f'True params:  {np.array(true_params)}')
print(f'Fitted params:{np.array(params)}')
_report({"jit(repeat_n)", "jit(loss)"}, 21)  # scaffolding
