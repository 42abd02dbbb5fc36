# source: https://github.com/AlainTeil/JAX_Tutorial/blob/60bd57cee7eb1fa85fc3a2c94356bdb4cb72ca2d/lessons/lesson_04_jit.py
# expect: none
# runtime: COMPILES 3 CALLS 6
# why: the lesson's jitted train step takes the learning rate as a traced Python float (one compile for three rates) and powered_sum marks power static (one compile per distinct power), both as intended.
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


def affine_forward(params: dict[str, jnp.ndarray], x: jnp.ndarray) -> jnp.ndarray:
    return x @ params["w"] + params["b"]


jitted_affine_forward = jax.jit(affine_forward)


def mse_from_affine(params: dict[str, jnp.ndarray], x: jnp.ndarray, y: jnp.ndarray) -> jnp.ndarray:
    pred = affine_forward(params, x)
    return jnp.mean((pred - y) ** 2)


def train_step(params: dict[str, jnp.ndarray], x: jnp.ndarray, y: jnp.ndarray, lr: float):
    loss, grads = jax.value_and_grad(mse_from_affine)(params, x, y)
    new_params = {
        "w": params["w"] - lr * grads["w"],
        "b": params["b"] - lr * grads["b"],
    }
    return new_params, loss


jitted_train_step = jax.jit(train_step)


def powered_sum(x: jnp.ndarray, power: int) -> jnp.ndarray:
    return jnp.sum(x**power)


jitted_powered_sum = jax.jit(powered_sum, static_argnames=("power",))

params = {"w": jnp.ones((3, 1)), "b": jnp.zeros((1,))}  # scaffolding: the lesson's tests/solutions drive these
x = jnp.ones((4, 3)); y = jnp.zeros((4, 1))  # scaffolding
for lr in [0.1, 0.05, 0.01]:  # scaffolding: a Python float lr is traced, not static
    params, loss = jitted_train_step(params, x, y, lr)  # scaffolding
for power in [2, 2, 3]:  # scaffolding: one compile per distinct static power
    jitted_powered_sum(x, power=power)  # scaffolding
_report({"jit(train_step)", "jit(powered_sum)"}, 6)  # scaffolding
