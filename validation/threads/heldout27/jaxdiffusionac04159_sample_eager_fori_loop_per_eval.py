# source: https://github.com/andylolu2/jax-diffusion/commit/ac04159375745dcba110aa0fba934be51c8505e6
# expect: jit-in-loop-or-body at line 246
# runtime: COMPILES 3 CALLS 3
# why: the commit removes @jit from Trainer._sample, so every evaluate runs lax.fori_loop eagerly with a body_fun closure defined inside _sample, and the loop (lowered to a scan) is compiled again on each call: 3 compiles for 3 evaluations.
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



import functools
from collections import defaultdict
from functools import partial
from pathlib import Path
from typing import Optional, Sequence, Tuple

import jax
import jax.numpy as jnp
import numpy as np
import optax
import flax.linen as nn  # scaffolding: for the UNet stand-in
from flax.training.train_state import TrainState
from jax import random

random.KeyArray = jax.Array  # scaffolding: jax.random.KeyArray was removed; used in annotations only


class dataset:  # scaffolding: jax_diffusion.train.dataset, used here only in annotations
    Batch = dict  # scaffolding
    Dataset = object  # scaffolding
jax.tree_leaves = jax.tree_util.tree_leaves  # scaffolding: removed from jax


class wandb:  # scaffolding: only wandb.Image is used
    Image = staticmethod(lambda image: image)  # scaffolding


def image_grid(generated):  # scaffolding: jax_diffusion.utils.image_grid (a plotting helper)
    return np.asarray(generated)  # scaffolding


class UNet(nn.Module):  # scaffolding: a tiny stand-in for jax_diffusion.model.UNet with its call signature
    features: int = 4  # scaffolding

    @nn.compact  # scaffolding
    def __call__(self, x, t):  # scaffolding
        h = nn.relu(nn.Conv(self.features, (3, 3))(x) + t[:, :, None, None] / 10.0)  # scaffolding
        return nn.Conv(x.shape[-1], (3, 3))(h)  # scaffolding


# --- jax_diffusion/diffusion.py (parent commit) ---
def betas(diffusion_config):
    return _beta_schedule(**diffusion_config)


def alphas(diffusion_config):
    return _alpha_schedule(**diffusion_config)


def alpha_bars(diffusion_config):
    return _alpha_bar_schedule(**diffusion_config)


@functools.lru_cache(maxsize=1)
def _beta_schedule(beta_1: float, beta_T: float, T: int):
    return np.linspace(beta_1, beta_T, T, dtype=np.float32)


@functools.lru_cache(maxsize=1)
def _alpha_schedule(beta_1: float, beta_T: float, T: int):
    return 1 - _beta_schedule(beta_1, beta_T, T)


@functools.lru_cache(maxsize=1)
def _alpha_bar_schedule(beta_1: float, beta_T: float, T: int):
    return np.cumprod(_alpha_schedule(beta_1, beta_T, T))


# --- jax_diffusion/train/trainer.py (after the commit; Trainer up to _sample) ---
class Trainer:
    def __init__(self, init_rng, config):
        self._init_rng = init_rng
        self._config = config

        # Trainer state
        self._state: Optional[TrainState] = None
        self._lr_schedule: Optional[optax.Schedule] = None

        # Input pipelines.
        self._train_input: Optional[dataset.Dataset] = None

    @property
    def global_step(self) -> int:
        if self._state is None:
            return 0
        return int(self._state.step)

    def step(self):
        """Performs one training step"""
        if self._train_input is None:
            self._initialize_train()

        assert self._train_input is not None
        assert self._state is not None

        inputs = next(self._train_input)
        self._state, metrics = self._update_fn(self._state, inputs)

        meta = self._metadata()
        metrics.update(meta)

        return metrics

    def evaluate(self, rng: random.KeyArray):
        """Performs evaluation on the evaluation dataset"""
        metrics = defaultdict(int)

        sample = None
        for i, inputs in enumerate(self._build_eval_input()):
            sample = inputs
            m = self._eval_fn(self._state, inputs)

            for k, v in m.items():
                metrics[k] = (m[k] * i + v) / (i + 1)

        assert sample is not None
        shape = (self._config.eval.gen_samples,) + sample["x_t"].shape[1:]
        generated = self._sample(self._state, shape=shape, rng=rng)

        image = image_grid(generated)
        metrics["sample"] = wandb.Image(image)

        return metrics

    def _create_train_state(self, inputs: dataset.Batch, rng: random.KeyArray):
        model = UNet(**self._config.model.unet_kwargs)
        params = model.init(rng, inputs["x_t"], inputs["t"])["params"]
        tx, self._lr_schedule = self._create_optimizer()

        count = sum(x.size for x in jax.tree_leaves(params)) / 1e6
        print(f"Parameter count: {count:.2f}M")

        return TrainState.create(apply_fn=model.apply, params=params, tx=tx)

    def _forward_fn(self, params, inputs):
        assert self._state is not None
        return self._state.apply_fn({"params": params}, inputs["x_t"], inputs["t"])

    def _loss(self, pred, inputs: dataset.Batch):
        return optax.l2_loss(pred, jnp.asarray(inputs["eps"])).mean()

    def _loss_fn(self, params, inputs: dataset.Batch):
        pred = self._forward_fn(params, inputs)
        loss = self._loss(pred, inputs)
        metrics = self._compute_metrics(pred, inputs)
        return loss, metrics

    def _compute_metrics(self, pred, inputs: dataset.Batch):
        loss = self._loss(pred, inputs)
        return {"loss": loss}

    def _metadata(self):
        meta = {}
        meta["learning_rate"] = self._lr_schedule(self.global_step)
        return meta

    @partial(jax.jit, static_argnums=(0,))
    def _update_fn(self, state: TrainState, inputs: dataset.Batch):
        grad_loss_fn = jax.grad(self._loss_fn, has_aux=True)
        grads, metrics = grad_loss_fn(state.params, inputs)
        state = state.apply_gradients(grads=grads)
        return state, metrics

    @partial(jax.jit, static_argnums=(0,))
    def _eval_fn(self, state: TrainState, inputs: dataset.Batch):
        pred = self._forward_fn(state.params, inputs)
        metrics = self._compute_metrics(pred, inputs)
        return metrics

    def _sample(self, state: TrainState, shape: Sequence[int], rng: random.KeyArray):
        """See Algorithm 2 in https://arxiv.org/pdf/2006.11239.pdf"""

        rng1, rng2 = jax.random.split(rng)
        init_val = {
            "x": jax.random.normal(rng1, shape=shape),
            "rng": rng2,
            "constants": (
                self._config.diffusion.T,
                state.params,
                alphas(self._config.diffusion),
                alpha_bars(self._config.diffusion),
                betas(self._config.diffusion),
            ),
        }

        def body_fun(i: int, val):
            """
            Args:
                i (int): Iteration number
                val (Tuple): Tuple of (x, rng, constants).
                    x is of shape `[b, w, h, c]`.
                    constants is a tuple of (T, alphas, alpha_bars, betas).
            """
            x, rng, constants = val["x"], val["rng"], val["constants"]
            T, params, alpha, alpha_bar, beta = constants
            t = T - i - 1
            alpha_t = alpha[t]
            alpha_t_bar = alpha_bar[t]
            sigma_t = beta[t] ** 0.5
            rng, rng_next = jax.random.split(rng)

            z = jax.lax.cond(
                pred=t > 0,
                true_fun=lambda: jax.random.normal(
                    rng, shape=x.shape, dtype=jnp.float32
                ),
                false_fun=lambda: jnp.zeros(shape=x.shape, dtype=jnp.float32),
            )

            t_input = jnp.full((x.shape[0], 1), t, dtype=jnp.float32)
            eps = self._forward_fn(params, {"x_t": x, "t": t_input})

            x = (1 / alpha_t**0.5) * (
                x - ((1 - alpha_t) / (1 - alpha_t_bar) ** 0.5) * eps
            ) + sigma_t * z

            return {"x": x, "rng": rng_next, "constants": constants}

        x = jax.lax.fori_loop(
            lower=0,
            upper=self._config.diffusion.T,
            body_fun=body_fun,
            init_val=init_val,
        )["x"]

        return x


class _Cfg(dict):  # scaffolding: ml_collections-style config (attribute access and ** unpacking)
    __getattr__ = dict.__getitem__  # scaffolding


config = _Cfg(model=_Cfg(unet_kwargs={}), diffusion=_Cfg(beta_1=1e-4, beta_T=0.02, T=5), eval=_Cfg(gen_samples=2))  # scaffolding: T=5 steps, 2 samples
trainer = Trainer(jax.random.PRNGKey(0), config)  # scaffolding
_inputs = {"x_t": jnp.zeros((2, 8, 8, 1)), "t": jnp.zeros((2, 1)), "eps": jnp.zeros((2, 8, 8, 1))}  # scaffolding: one 8x8 eval batch
trainer._create_optimizer = lambda: (optax.adam(1e-3), optax.constant_schedule(1e-3))  # scaffolding: the repo builds these from the config
trainer._state = trainer._create_train_state(_inputs, jax.random.PRNGKey(1))  # scaffolding: what _initialize_train does
trainer._build_eval_input = lambda: [_inputs]  # scaffolding: the tfds eval pipeline
for i in range(3):  # scaffolding: main.py runs evaluate periodically during training
    metrics = trainer.evaluate(jax.random.PRNGKey(i))  # scaffolding
_report({"jit(scan)"}, 3)  # scaffolding: the eager lax.fori_loop in _sample compiles as jit(scan); one _sample call per evaluate
