# source: https://github.com/google-research/timesfm/commit/25bb4f20e8f69c8d220a59611cf41b0f298977e1
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The commit freezes ForecastConfig, so it hashes as a static argument and the jitted function compiles once.

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


import dataclasses
import functools
import warnings  # scaffolding

import jax
import jax.numpy as jnp

warnings.filterwarnings("ignore", message=".*donated.*")  # scaffolding: CPU cannot donate buffers

_TOLERANCE = 1e-6


# src/timesfm/configs.py after the commit (docstring left out)
@dataclasses.dataclass(frozen=True)
class ForecastConfig:
  max_context: int = 0
  max_horizon: int = 0
  normalize_inputs: bool = False
  window_size: int = 0
  per_core_batch_size: int = 1
  use_continuous_quantile_head: bool = False
  force_flip_invariance: bool = True
  infer_is_positive: bool = True
  fix_quantile_crossing: bool = False
  return_backcast: bool = False


def jax_einshape(spec, x, b):  # scaffolding: einshape is not installed; "(tb)...->tb..." only
  return x.reshape((x.shape[0] // b, b) + x.shape[1:])


# src/timesfm/flax/util.py
@functools.partial(jax.jit, static_argnames=("reverse",))
def revin(
    x,
    mu,
    sigma,
    reverse: bool = False,
):
  """Reversible per-instance normalization."""
  if len(mu.shape) == len(x.shape) - 1:
    mu = mu[..., None]
    sigma = sigma[..., None]
  elif len(mu.shape) == len(x.shape) - 2:
    mu = mu[..., None, None]
    sigma = sigma[..., None, None]
  if reverse:
    return x * sigma + mu
  else:
    return (x - mu) / jnp.where(sigma < _TOLERANCE, 1.0, sigma)


# src/timesfm/timesfm_2p5/timesfm_2p5_flax.py
@functools.partial(jax.jit, static_argnames=("fc",), donate_argnums=(1, 2))
def _before_model_decode(fc, inputs, masks):
  """All Jax steps before model decode call."""
  if fc.infer_is_positive:
    is_positive = jnp.all(inputs >= 0, axis=-1, keepdims=True)
  else:
    is_positive = None

  if fc.normalize_inputs:
    mu = jnp.mean(inputs, axis=-1, keepdims=True)
    sigma = jnp.std(inputs, axis=-1, keepdims=True)
    inputs = revin(inputs, mu, sigma, reverse=False)
  else:
    mu, sigma = None, None

  inputs = jax_einshape("(tb)...->tb...", inputs, b=fc.per_core_batch_size)
  masks = jax_einshape("(tb)...->tb...", masks, b=fc.per_core_batch_size)

  return inputs, masks, is_positive, mu, sigma


# scaffolding: the decode path calls _before_model_decode with the compiled forecast config, once per batch
fc = ForecastConfig(max_context=64, max_horizon=32, normalize_inputs=True, per_core_batch_size=4)
calls = 0
try:  # scaffolding
  for i in range(3):
    inputs = jax.random.normal(jax.random.PRNGKey(i), (8, 64))
    masks = jnp.zeros((8, 64), bool)
    out = _before_model_decode(fc, inputs, masks)
    calls += 1
  _report({"jit(_before_model_decode)"}, calls)
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")
