# source: https://github.com/Dhia-naouali/learning-jax/blob/5a2fecb984670c003e4ff91a6795b65cea002017/micro-projects/03_logistic_regression/main.py
# expect: none
# runtime: COMPILES 1 CALLS 32
# why: the @jax.jit update reads the module-level learning_rate at trace time, but learning_rate never changes, so the 32 steps reuse one compile and the constant is right.
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
# import matplotlib.pyplot as plt  # scaffolding: matplotlib not installed
from typing import NamedTuple

class Params(NamedTuple):
    weight: jnp.ndarray
    bias: jnp.ndarray
    
def init(rng):
    w_key, b_key = jax.random.split(rng)
    w = jax.random.normal(w_key, ())
    b = jax.random.normal(b_key, ())
    return Params(w, b)

def loss(params, x, y):
    y_hat = x * params.weight + params.bias
    return jnp.mean((y - y_hat) ** 2)

learning_rate = 5e-2

@jax.jit
def update(params, x, y):
    grads = jax.grad(loss)(params, x, y)
    return jax.tree.map(
        lambda g, p: p - learning_rate*g,
        grads,
        params
    )


w_ = 1.6
b_ = .8
n = 128

key = jax.random.key(12)
key, params_key, x_key, y_key = jax.random.split(key, 4)

xs = jax.random.normal(x_key, (n, 1))
noise = jax.random.normal(y_key, (n, 1))*0.4
ys = xs * w_ + b_ + noise

params = init(params_key)

for _ in range(32):
    params = update(params, xs, ys)

y_pred = xs * params.weight + params.bias
# plt.scatter(xs, ys)  # scaffolding: plotting off
# plt.plot(xs, y_pred, c="red")  # scaffolding: plotting off
# plt.show()  # scaffolding: plotting off
_report({"jit(update)"}, 32)  # scaffolding
