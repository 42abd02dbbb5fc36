# source: https://github.com/google-deepmind/jax_privacy/commit/00e3f9e9b689972db85e861f3ec3716a4eba0503
# expect: none
# runtime: COMPILES 2 CALLS 10
# why: precompile lowers and AOT-compiles train_step for every sampled batch, repeats included, but on jax 0.10.2 the repeated lower().compile() of an identical computation is served from the compilation cache, so only the two distinct padded sizes reach the backend.
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

import concurrent.futures
import contextlib
import copy
import dataclasses
import functools
from typing import Any, TypeAlias

import jax
import jax.numpy as jnp
import numpy as np

PrecompiledFuture: TypeAlias = concurrent.futures.Future[jax.stages.Compiled]

# Shared thread pool for background ahead-of-time compilation.
_COMPILE_POOL = concurrent.futures.ThreadPoolExecutor(max_workers=1)

# JAX config flag that lowers large closed-over constants as arguments to the
# compiled executable instead of baking them into the HLO as literals.
_SIMPLIFIED_JAXPR_CONSTANTS_FLAG = "jax_use_simplified_jaxpr_constants"


@contextlib.contextmanager
def hoist_closed_over_constants():
  previous = getattr(jax.config, _SIMPLIFIED_JAXPR_CONSTANTS_FLAG)
  jax.config.update(_SIMPLIFIED_JAXPR_CONSTANTS_FLAG, True)
  try:
    yield
  finally:
    jax.config.update(_SIMPLIFIED_JAXPR_CONSTANTS_FLAG, previous)


@dataclasses.dataclass(frozen=True, kw_only=True)
class PadToMultiple:
  """Pads each batch to a multiple of ``multiple`` to bound recompilations."""

  multiple: int = 32


class batch_selection:  # scaffolding: jax_privacy/batch_selection.py pad_to_multiple_of (1-D case)
  @staticmethod
  def pad_to_multiple_of(indices, multiple):
    curr_size = indices.shape[0]
    pad_size = (multiple - curr_size) % multiple
    if pad_size == 0:
      return indices
    new_indices = np.full(curr_size + pad_size, -1, dtype=indices.dtype)
    new_indices[:curr_size] = indices
    return new_indices


class _PoissonSampling:  # scaffolding: the plan's Poisson batch selection strategy
  def __init__(self, sampling_prob, iterations):
    self.sampling_prob, self.iterations = sampling_prob, iterations

  def batch_iterator(self, n, rng):
    for _ in range(self.iterations):
      yield np.nonzero(rng.random(n) < self.sampling_prob)[0]


def _train_step(trainer, state, batch, is_padding, key):  # scaffolding: a clipped, noised SGD step
  def loss(p, x):
    return jnp.sum((x @ p["w"]) ** 2)
  grads = jax.vmap(jax.grad(loss), in_axes=(None, 0))(state["params"], batch)
  grads = jax.tree.map(lambda g: jnp.where(is_padding[:, None, None], 0.0, g).sum(0), grads)
  noise = jax.random.normal(key, state["params"]["w"].shape)
  return {"params": {"w": state["params"]["w"] - 0.1 * (grads["w"] + noise)}}


@dataclasses.dataclass(frozen=True)
class DPTrainer:  # scaffolding: the fields precompile reads
  plan: Any
  compilation_strategy: Any
  train_step = staticmethod(jax.jit(_train_step, static_argnums=0))

  def init(self, params):
    return {"params": params}


def _abstract_batch_and_padding(dataset, size):
  """Returns abstract ``(batch, is_padding)`` inputs of the given size."""
  batch = jax.tree.map(
      lambda x: jax.ShapeDtypeStruct((size, *x.shape[1:]), x.dtype), dataset
  )
  padding = jax.ShapeDtypeStruct((size,), np.bool_)
  return batch, padding


def _dry_run_state(trainer, dataset, params, rng_or_seed):
  """Eval-shape setup; draws the same rng as training for JIT cache hits."""
  rng = copy.deepcopy(np.random.default_rng(rng_or_seed))
  seed = rng.integers(2**63)
  n = dataset.shape[0]  # scaffolding: _validate.batch(dataset)
  state = jax.eval_shape(trainer.init, params)
  key = jax.eval_shape(lambda x: x, jax.random.key(seed))
  return rng, n, state, key


def precompile(trainer, dataset, params, *, rng_or_seed=None):
  strategy = trainer.compilation_strategy
  # This rng matches the one used in training, so even though the batch iterator
  # is stochastic, the batch sizes and hence compiled functions will match.
  rng, n, state, key = _dry_run_state(trainer, dataset, params, rng_or_seed)
  batch_strategy = trainer.plan.batch_selection_strategy
  futures: dict[int, PrecompiledFuture] = {}
  with hoist_closed_over_constants():
    for idx in batch_strategy.batch_iterator(n, rng=rng):
      padded = batch_selection.pad_to_multiple_of(idx, strategy.multiple)
      batch_size = padded.size
      batch, padding = _abstract_batch_and_padding(dataset, batch_size)

      # The compilation cache leaks the compiled batch size(s), which depend on
      # the sampled batches -- a technical DP violation if it is part of output.
      lowered = trainer.train_step.lower(trainer, state, batch, padding, key)
      # We asyncronously ahead-of-time (AOT) compile the lowered function in a
      # background thread to avoid blocking the training loop.
      futures[batch_size] = _COMPILE_POOL.submit(lowered.compile)

  return trainer, futures


# scaffolding: 64 examples, expected batch 12 padded to multiples of 8, 10 steps
class _Plan:
  batch_selection_strategy = _PoissonSampling(12 / 64, 10)

trainer = DPTrainer(plan=_Plan(), compilation_strategy=PadToMultiple(multiple=8))
dataset = np.ones((64, 4), np.float32)
trainer, futures = precompile(trainer, dataset, {"w": jnp.zeros((4, 2))}, rng_or_seed=0)
compiled = {b: f.result() for b, f in futures.items()}
_report({"jit(_train_step)"}, 10)
