# source: https://github.com/eu90h/python-notebooks/blob/206993a12975760fbb5a74fed74518483d64fcd6/Exponential%20Smoothing.ipynb
# expect: none
# runtime: COMPILES 3 CALLS 110
# why: jax.grad of the jitted loss is called eagerly on every step of the fitting loop while alpha changes from a Python float to a weakly typed float32 array; the forward, linearised and transposed versions of loss are each compiled once and then reused, so there is no per-step recompilation (3 compiles for 110 calls).
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
# %% cell 0
import jax
import jax.numpy as jnp
from jax import random
import numpy as np  # scaffolding
from collections import namedtuple
randkey = random.PRNGKey(0)
ModelParams = namedtuple('ModelParams', 'alpha')
# %% cell 1
training_data = jnp.array(np.round(100 + 50 * np.sin(np.arange(144) / 6) + np.arange(144)).astype(np.int64))  # scaffolding: AirPassengers '#Passengers'
# %% cell 3
@jax.jit
def predict_single(params: ModelParams, y, y_hat):
    return params.alpha * y + (1.0 - params.alpha) * y_hat

@jax.jit
def predict(params: ModelParams, ys: jnp.array):
    predictions = [ys[0]]
    for k in range(0, len(ys)):
        y_hat = predict_single(params, ys[k], predictions[k])
        predictions.append(y_hat)
    return jnp.array(predictions)

@jax.jit
def loss(params: ModelParams, ys: jnp.array):
    preds = predict(params, ys)[:-1]
    return jnp.square(preds - ys).mean()

loss_grad = jax.grad(loss)
params = ModelParams(0.1)
# %% cell 5
n_calls = 0  # scaffolding
eta = 1e-4
for i in range(100):  # scaffolding: 10_000
    if i % 10 == 0:
        ell = loss(params, training_data)
        n_calls += 1  # scaffolding
        print(f"loss {ell:.2}")
    G = loss_grad(params, training_data)
    n_calls += 1  # scaffolding
    old_params = params
    params = ModelParams(params.alpha - eta * G.alpha)
    if abs(old_params.alpha - params.alpha) < 1e-6:
        break
_report({"jit(loss)"}, n_calls)  # scaffolding
