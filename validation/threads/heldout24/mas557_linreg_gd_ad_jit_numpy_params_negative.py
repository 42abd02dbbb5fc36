# source: https://github.com/jaeminoh/MAS557/blob/03a0a0f6197e93ac3d0bc186f7d273d131917d3e/recitation0/linear_regression/4_gd_ad_jit.py
# expect: none
# runtime: COMPILES 1 CALLS 1000
# why: the jitted step starts from a NumPy float64 params array and returns a float32 jax array, and lr is a Python default argument; both give the same abstract signature (float32[2], weak float lr), and the data are closed-over NumPy constants, so step compiles once for 1000 calls.
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
import numpy as np
from tqdm import trange

print("gradient descent, ad, jit, jax")
data = {"x": np.random.random(size=(100,))}  # scaffolding: data/data.npz as made by 0_data_generation.py
data["y"] = 3 * data["x"] - 1 + 0.1 * np.random.random(size=(100,))  # scaffolding
x, y = data["x"], data["y"]

# initial guess for weight and bias
params = np.array([0.0, 0.0])


@jax.value_and_grad
def loss(params):
    weight, bias = params
    loss = ((y - weight * x - bias) ** 2).mean()
    return loss


@jax.jit
def step(params, lr=0.1):
    v, g = loss(params)
    params = params - lr * g
    return params, v


for it in (pbar := trange(1000)):
    params, v = step(params)
    if it % 100 == 0:
        pbar.set_postfix({"loss": f"{v:.3e}"})

print(f"params: {params}")
_report({"jit(step)"}, 1000)  # scaffolding
