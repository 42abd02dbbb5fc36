# source: https://github.com/ymahlau/bonni/blob/0c2c4602cba312f4e5e96e854b81d14d0ed3ccdf/src/bonni/visualization/surrogate.py
# expect: jit-in-loop-or-body at line 177
# runtime: COMPILES 4 CALLS 4
# why: visualize_bo_1d, called once per BO iteration by bo_loop, builds a new MLPEnsemble and calls jax.jit(model.apply)(...) on its fresh bound method, so the one-point prediction is compiled again on every call.

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
import math
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np
import scipy
import scipy.special  # scaffolding
from flax import linen as nn

_SQRT_HALF = math.sqrt(0.5)
_INV_SQRT_2PI = 1 / math.sqrt(2 * math.pi)
_LOG_SQRT_2PI = math.log(math.sqrt(2 * math.pi))


# --- src/bonni/model/mlp.py, cut down (scaffolding: plain Dense stack instead of MLPLayer/GroupNorm/Dropout) ---
@dataclass(frozen=True, kw_only=True)
class MLPModelConfig:
    num_layer: int
    out_channels: int
    hidden_channels: int | None = None


class MLP(nn.Module):
    cfg: MLPModelConfig

    @nn.compact
    def __call__(self, x, deterministic: bool = False):  # scaffolding
        for _ in range(self.cfg.num_layer - 1):
            x = nn.gelu(nn.Dense(self.cfg.hidden_channels)(x))
        return nn.Dense(self.cfg.out_channels)(x)


# --- src/bonni/model/ensemble.py ---
@dataclass(frozen=True, kw_only=True)
class MLPEnsembleConfig:
    base_cfg: MLPModelConfig
    num_models: int


class MLPEnsemble:
    def __init__(self, cfg: MLPEnsembleConfig) -> None:
        self.cfg = cfg
        self.base_model = MLP(self.cfg.base_cfg)

    def init(self, key, x):
        key_list = jax.random.split(key, self.cfg.num_models)
        vmapped_params = jax.vmap(self.base_model.init, in_axes=[0, None])(key_list, x)
        return vmapped_params

    def apply(self, params, x, deterministic: bool = False, rngs=None, single_forward: bool = False):
        assert x.ndim == 1

        def _single_sample_single_model(p, k):
            return self.base_model.apply(p, x, deterministic=deterministic, rngs=k)

        if rngs is not None:
            assert rngs.size == 2
            if single_forward:
                forward_fn = _single_sample_single_model
                k = rngs
            else:
                forward_fn = jax.vmap(_single_sample_single_model, in_axes=(0, 0))
                k = jax.random.split(rngs, self.cfg.num_models)
            results = forward_fn(params, k)
        else:
            forward_fn = (
                _single_sample_single_model
                if single_forward
                else jax.vmap(_single_sample_single_model, in_axes=(0, None))
            )
            results = forward_fn(params, None)

        assert isinstance(results, jax.Array)
        results = results.flatten()
        if single_forward:
            assert results.size == 1
        else:
            assert results.size == self.cfg.num_models
        return results


# --- src/bonni/model/embedding.py ---
class SinCosActionEmbedding:
    def __init__(self, num_channels: int):
        self.num_channels = num_channels

    @property
    def channels_per_action(self) -> int:
        return 2 * self.num_channels + 1

    def get_full_num_channel(self, num_actions: int) -> int:
        return self.channels_per_action * num_actions

    def embed_single_action(self, action, action_bounds):
        action = action.flatten()
        min_a, max_a = action_bounds[0], action_bounds[1]
        mapped = (action - min_a) / (max_a - min_a)
        relative_pos = mapped * jnp.pi
        freqs = jnp.arange(1, self.num_channels + 1)
        orig_val = mapped * 2 - 1
        sin_vals = jnp.sin(relative_pos * freqs)
        cos_vals = jnp.cos(relative_pos * freqs)
        result = jnp.concat((orig_val, sin_vals, cos_vals), axis=0).flatten()
        return result

    def __call__(self, actions, action_bounds):
        num_actions = actions.shape[0]
        full_num_channels = self.get_full_num_channel(num_actions)
        vmapped_embed_fn = jax.vmap(self.embed_single_action, in_axes=[0, 0])
        embedded_actions = vmapped_embed_fn(actions, action_bounds)
        return embedded_actions.reshape(full_num_channels,)


# --- src/bonni/visualization/surrogate.py (acquisition panel and plotting cut: scaffolding) ---
def visualize_bo_1d(
    params,
    key: jax.Array,
    xs: np.ndarray,
    ys: np.ndarray,
    bounds: np.ndarray,
    num_embedding_channels: int,
    ensemble_cfg: MLPEnsembleConfig,
    sample_mask: np.ndarray,
    next_point: np.ndarray | None = None,
    x_resolution: int = 200,
):
    ys_jax = jnp.asarray(ys)
    ys_safe = jnp.nan_to_num(ys_jax, nan=0.0)
    y_mean = jnp.mean(ys_safe, where=sample_mask)
    y_std = jnp.std(ys_safe, where=sample_mask)
    y_std = jnp.where(y_std < 1e-8, 1.0, y_std)

    min_a, max_a = bounds[0, 0].item(), bounds[0, 1].item()
    full_x = jnp.linspace(min_a, max_a, x_resolution)

    # --- 3. Compute Surrogate Values ---
    embedding = SinCosActionEmbedding(num_embedding_channels)
    model = MLPEnsemble(ensemble_cfg)
    jax_bounds = jnp.asarray(bounds)
    full_obs = jax.vmap(embedding, in_axes=[0, None])(full_x[:, None], jax_bounds)
    key, subkey = jax.random.split(key)
    full_pred = jax.vmap(model.apply, in_axes=[None, 0, None])(params, full_obs, subkey)

    next_mean = None
    if next_point is not None:
        next_obs = embedding(jnp.asarray(next_point), jax_bounds)
        key, subkey = jax.random.split(key)
        next_pred = jax.jit(model.apply)(params, next_obs, rngs=subkey)
        next_mean = jnp.mean(next_pred)

    mean, std = jnp.mean(full_pred, axis=1), jnp.std(full_pred, axis=1)
    if jnp.sum(sample_mask) > 1:
        mean = mean * y_std
        if next_mean is not None:
            next_mean = next_mean * y_std
        std = std * y_std
    mean = mean + y_mean
    if next_mean is not None:
        next_mean = next_mean + y_mean
    return mean, std, next_mean  # scaffolding: the figure is not drawn


# scaffolding: bo_loop calls visualize_bo_1d once per BO iteration (4 iterations here)
ensemble_cfg = MLPEnsembleConfig(base_cfg=MLPModelConfig(num_layer=2, out_channels=1, hidden_channels=8), num_models=4)  # scaffolding
bounds = np.array([[-1.0, 1.0]])  # scaffolding
xs = np.random.default_rng(0).uniform(-1, 1, size=(6, 1))  # scaffolding
ys = np.sin(3 * xs[:, 0])  # scaffolding
params = MLPEnsemble(ensemble_cfg).init(jax.random.PRNGKey(0), jnp.zeros(3))  # scaffolding
key = jax.random.PRNGKey(1)  # scaffolding
n_iter = 4  # scaffolding
for idx in range(n_iter):  # scaffolding
    key, subkey = jax.random.split(key)
    visualize_bo_1d(params, key=subkey, xs=xs, ys=ys, bounds=bounds, num_embedding_channels=1,  # scaffolding
                    ensemble_cfg=ensemble_cfg, sample_mask=np.ones(6, dtype=bool), next_point=np.array([0.1 * idx]))
_report({"jit(apply)"}, n_iter)
