# source: https://github.com/lasse-meixner/wgan-jax/commit/eb08c0a9fd378ab6b639257cb9f335a171d96ac3
# expect: trace-time-error at line 106
# runtime: ERROR TypeError
# why: the jitted _evaluate_wd receives the flax Generator/Critic modules as traced arguments; they are not arrays, so jit raises TypeError.
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


# from __future__ import annotations  # scaffolding: must be the first statement, and the harness comes first; nothing kept here needs it

import functools
import json
import os

from typing import Sequence

import jax
import jax.numpy as jnp
import flax.linen as nn
import flax.serialization
import numpy as np
import optax
# import pandas as pd  # scaffolding: pandas is not installed; _DataWrapper, WGAN.__init__/train and compare_dfs are left out
from flax.training.train_state import TrainState
from tqdm.auto import tqdm


class Generator(nn.Module):
    """Conditional generator for tabular data."""
    d_hidden: Sequence[int]
    d_output: int
    d_cont: int
    cat_dims: Sequence[int]
    cont_bounds: jnp.ndarray
    noise_dim: int
    dropout_rate: float = 0.1

    @nn.compact
    def __call__(self, conditioning, deterministic=False):
        noise = jax.random.normal(
            self.make_rng("noise"),
            (conditioning.shape[0], self.noise_dim),
        )
        x = jnp.concatenate([noise, conditioning], axis=-1)
        for h in self.d_hidden:
            x = nn.Dense(h)(x)
            x = nn.relu(x)
            x = nn.Dropout(rate=self.dropout_rate, deterministic=deterministic)(x)
        x = nn.Dense(self.d_output)(x)
        return self._transform(x)

    def _transform(self, x):
        cont = x[:, :self.d_cont]
        cat = x[:, self.d_cont:]
        # Enforce bounds on continuous outputs
        if self.d_cont > 0:
            cont = jnp.clip(cont, self.cont_bounds[0], self.cont_bounds[1])
        # Softmax per categorical group
        if len(self.cat_dims) > 0:
            parts = []
            offset = 0
            for dim in self.cat_dims:
                parts.append(jax.nn.softmax(cat[:, offset:offset + dim], axis=-1))
                offset += dim
            cat = jnp.concatenate(parts, axis=-1)
        return jnp.concatenate([cont, cat], axis=-1)


class Critic(nn.Module):
    """Wasserstein critic for tabular data."""
    d_hidden: Sequence[int]

    @nn.compact
    def __call__(self, x, conditioning):
        h = jnp.concatenate([x, conditioning], axis=-1)
        for d in self.d_hidden:
            h = nn.Dense(d)(h)
            h = nn.relu(h)
        return nn.Dense(1)(h)


# ---------------------------------------------------------------------------
# WGAN class (only the evaluation method; the rest needs pandas)
# ---------------------------------------------------------------------------

class WGAN:
    @staticmethod
    @jax.jit
    def _evaluate_wd(gen_model, critic_model, critic_state, gen_state, x_test, cond_test, rng):
        """Compute Wasserstein distance estimate on test data."""
        rng, noise_rng = jax.random.split(rng)
        x_fake = gen_model.apply(
            {"params": gen_state.params},
            cond_test,
            deterministic=True,
            rngs={"noise": noise_rng},
        )
        critic_real = critic_model.apply(
            {"params": critic_state.params}, x_test, cond_test,
        ).mean()
        critic_fake = critic_model.apply(
            {"params": critic_state.params}, x_fake, cond_test,
        ).mean()
        return critic_real - critic_fake


# scaffolding below: what WGAN.__init__ and WGAN.train build (they need a pandas DataFrame), for 2 continuous
# variables in [0, 1], one categorical variable with 3 levels and 1 conditioning variable
d_cont, cat_dims, d_cond = 2, (3,), 1  # scaffolding
d_x = d_cont + sum(cat_dims)  # scaffolding
gen_model = Generator(d_hidden=(16, 16), d_output=d_x, d_cont=d_cont, cat_dims=cat_dims,  # scaffolding: as in WGAN.__init__
                      cont_bounds=jnp.array([[0.0, 0.0], [1.0, 1.0]]), noise_dim=d_x, dropout_rate=0.1)  # scaffolding
critic_model = Critic(d_hidden=(16, 16))  # scaffolding
rng = jax.random.PRNGKey(0)  # scaffolding
rng, gen_rng, critic_rng = jax.random.split(rng, 3)  # scaffolding
gen_params = gen_model.init({"params": gen_rng, "noise": gen_rng, "dropout": gen_rng}, jnp.ones((2, d_cond)))["params"]  # scaffolding
critic_params = critic_model.init({"params": critic_rng}, jnp.ones((2, d_x)), jnp.ones((2, d_cond)))["params"]  # scaffolding
gen_state = TrainState.create(apply_fn=gen_model.apply, params=gen_params, tx=optax.adam(learning_rate=1e-4))  # scaffolding
critic_state = TrainState.create(apply_fn=critic_model.apply, params=critic_params, tx=optax.adam(learning_rate=1e-4))  # scaffolding
x_test = jax.random.uniform(rng, (64, d_x))  # scaffolding: test_set_size=64
cond_test = jax.random.normal(rng, (64, d_cond))  # scaffolding
try:  # scaffolding
    for epoch in range(3):  # scaffolding: one evaluation per epoch, as in WGAN.train
        wd_test = WGAN._evaluate_wd(gen_model, critic_model, critic_state, gen_state, x_test, cond_test, rng)  # scaffolding: the call in WGAN.train, with the models/states it passes
        rng, _ = jax.random.split(rng)  # scaffolding
    print(float(wd_test))  # scaffolding
    _report({"jit(_evaluate_wd)", "jit(evaluate_wd)"}, 3)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
