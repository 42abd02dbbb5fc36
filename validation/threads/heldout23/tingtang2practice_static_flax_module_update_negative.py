# source: https://github.com/tingtang2/jax-practice/blob/b8d3a84cbe0d3a3238a10b30cf81e8314d902056/trainer.py
# expect: none
# runtime: COMPILES 1 CALLS 6
# why: update_weights marks the flax MLP module static (hashable, same instance every step) and reads optimizer from the enclosing scope, assigned before the first call; the training loop compiles once.
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

from functools import partial
from typing import Dict

import jax
import optax
from flax import linen as nn
from jax import Array, jit
from jax import numpy as jnp
from jax import random, value_and_grad


class MLP(nn.Module):

    @nn.compact
    def __call__(self, x: Array) -> Array:
        input_size = x.shape[-1]
        n_hidden = 256
        x = nn.Dense(features=n_hidden)(x)
        x = nn.relu(x)
        x = nn.Dense(features=n_hidden)(x)
        x = nn.relu(x)
        x = nn.Dense(features=n_hidden)(x)
        x = nn.relu(x)
        x = nn.Dense(features=input_size)(x)
        return x


def loss_fn(params: Dict, model: nn.Module, rng: Array, data: Array):
    # noise data
    rng, step_rng = random.split(rng)
    noise = random.normal(step_rng, data.shape)
    noised_data = 0.01 * data + noise

    # predict noise level
    output = model.apply(params, noised_data)
    return jnp.mean((noise - output)**2)


def run_bad_experiment(seed: int, dataset: Array):

    @partial(jit, static_argnums=[4])
    def update_weights(
        params: Dict,
        rng: Array,
        batch: Array,
        opt_state: optax.OptState,
        model: nn.Module,
    ):
        val, grads = value_and_grad(loss_fn)(params, model, rng, batch)
        updates, opt_state = optimizer.update(grads, opt_state)
        params = optax.apply_updates(params, updates)

        return val, params, opt_state

    # init model and optimizer
    rng = random.PRNGKey(seed)
    rng, model_rng = random.split(rng)

    denoiser = MLP()
    x = jnp.empty((10, 2))
    params = denoiser.init(model_rng, x)

    optimizer = optax.adam(learning_rate=1e-3)
    opt_state = optimizer.init(params=params)

    # run training loop
    n_epochs = 6  # scaffolding: 60000 in the repository

    losses = []

    for k in range(n_epochs):
        rng, step_rng = random.split(rng)
        loss, params, opt_state = update_weights(params, step_rng, dataset,
                                                 opt_state, denoiser)
        losses.append(loss)
    return n_epochs  # scaffolding: sampling and plotting cut (matplotlib not installed)


calls = run_bad_experiment(0, jnp.ones((64, 2)))  # scaffolding: a 64-point 2-D dataset
_report({"jit(update_weights)"}, calls)  # scaffolding
