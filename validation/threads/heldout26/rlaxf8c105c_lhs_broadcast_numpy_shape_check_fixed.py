# source: https://github.com/google-deepmind/rlax/commit/f8c105c189adce792f3bae6b307fc46e1000181d
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: after the fix the shape comparison uses numpy, so the if is decided at trace time on concrete shapes and the jitted caller compiles once for two calls with the same shapes.
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



# rlax (DeepMind RL research library): rlax/_src/base.py lhs_broadcast at f8c105c, with the parameter sets of
# rlax/_src/base_test.py BroadcastTest; the commit's aim is that lhs_broadcast works under jit, so the jitted caller is scaffolding.
from typing import Optional, Sequence, Union
import chex
import jax
import jax.numpy as jnp
import numpy as np
Array = chex.Array
Numeric = chex.Numeric


def lhs_broadcast(source, target):
  """Ensures that source is compatible with target for broadcasting."""
  same_shape = np.array(source.shape) == np.array(target.shape[:source.ndim])
  ones = np.array(source.shape) == np.ones((source.ndim,))
  if np.all(same_shape + ones):
    broadcast_shape = source.shape + (1,) * (target.ndim - source.ndim)
    return jnp.reshape(source, broadcast_shape)
  raise ValueError(
      "source shape {} is not compatible with target shape {}".format(
          source.shape, target.shape))


@jax.jit  # scaffolding: a jitted loss term that broadcasts per-step weights over a [T, B, ...] target, as rlax users do
def weighted(source, target):  # scaffolding
  return lhs_broadcast(source, target) * target  # scaffolding


calls = 0  # scaffolding
try:  # scaffolding
  for source_shape, target_shape, expected_result_shape in (  # scaffolding: BroadcastTest.test_lhs_broadcasting parameters
      ([1, 2, 1], [1, 2, 3], [1, 2, 1]),  # scaffolding
      ([1, 2, 1], [1, 2, 3], [1, 2, 1])):  # scaffolding: same shapes twice
    source = jnp.ones(shape=source_shape, dtype=jnp.float32)
    target = jnp.ones(shape=target_shape, dtype=jnp.float32)
    weighted(source, target)  # scaffolding
    calls += 1  # scaffolding
  _report({"jit(weighted)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")  # scaffolding
