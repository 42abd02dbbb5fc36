# source: https://github.com/AlexIoannides/notes-and-demos/pull/8
# expect: none
# runtime: COMPILES 1 CALLS 50
# why: update is jitted inside train(), but train is called once and update is reused for all 50 gradient steps with same-shaped inputs, so it compiles once (and the default lr is a Python constant, not a traced argument).
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


# demos/jax/linear_regression.ipynb as added by PR #8 (bd633bd): code cells in order, plots cut
from typing import List, Tuple

import jax
import jax.numpy as jnp
import numpy as np
from tqdm import tqdm

jnp.DeviceArray = jax.Array  # scaffolding: the jnp.DeviceArray alias the notebook annotates with was removed from JAX

n_obs = 1000

beta_0 = 1.0
beta_1 = 0.5
sigma = 0.1

x_train = np.random.standard_normal(n_obs)
y_train = beta_0 + beta_1 * x_train + sigma * np.random.standard_normal(n_obs)


def model(beta: jnp.DeviceArray, x: jnp.DeviceArray) -> jnp.DeviceArray:
    """1D linear regression."""
    return beta[0] + beta[1] * x


beta = jnp.array([beta_0, beta_1])
x = jnp.array(1.0)
y = model(beta, x)
print(f"y = {y.tolist()}")


def loss(
    beta: jnp.DeviceArray, x: jnp.DeviceArray, y: jnp.DeviceArray
) -> jnp.DeviceArray:
    """RMSE"""
    return ((model(beta, x) - y) ** 2).mean()


loss(beta, x_train, y_train)


def train(n_iterations: int) -> Tuple[List[float], List[float]]:
    """Train model using gradient descent."""

    @jax.jit
    def update(
        beta: jnp.DeviceArray,
        x: jnp.DeviceArray,
        y: jnp.DeviceArray,
        lr: float = 0.1,
    ):
        return beta - lr * jax.grad(loss)(beta, x, y)

    seed = jax.random.PRNGKey(42)
    beta = jax.random.uniform(seed, (2,))

    loss_hist: List[Tuple[int, float]] = []
    for n in tqdm(range(n_iterations), disable=True):  # scaffolding: progress bar off
        beta = update(beta, x_train, y_train)
        loss_hist.append((n, loss(beta, x_train, y_train).tolist()))

    return beta.tolist(), loss_hist


beta_est, loss_history = train(50)
print(f"beta_0 = {beta_est[0]: .3f}")
print(f"beta_1 = {beta_est[1]: .3f}")
_report({"jit(update)"}, 50)  # scaffolding
