# source: https://github.com/google/flax/commit/266052cb82ee2e687c34f5d183343c6614c71884
# expect: none
# runtime: COMPILES 2 CALLS 5
# why: The commit's fix: cross_replica_mean is one module-level pmap, so syncs reuse it; the only second compile comes from the first output's mesh axis differing from the replicate() input's, after which all syncs hit the cache (2 compiles for 5 syncs).

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
from typing import Any

import jax
import jax.numpy as jnp
from flax import jax_utils, struct
from flax.core import FrozenDict
from jax import lax


@struct.dataclass
class TrainState:  # scaffolding: the example's TrainState, reduced to step and model_state
  step: int
  model_state: Any


# pmean only works inside pmap because it needs an axis name.
# This function will average the inputs across all devices.
cross_replica_mean = jax.pmap(lambda x: lax.pmean(x, 'x'), 'x')


def sync_batch_stats(state):
  """Sync the batch statistics across replicas."""

  # Each device has its own version of the running average batch statistics and
  # we sync them before evaluation.
  new_model_state = state.model_state.copy({
      'batch_stats': cross_replica_mean(state.model_state['batch_stats'])})
  return state.replace(model_state=new_model_state)


# scaffolding: replicated ResNet batch statistics, synced before each of five evaluations
batch_stats = jax_utils.replicate({
    'BatchNorm_0': {'mean': jnp.zeros((64,)), 'var': jnp.ones((64,))},
    'BatchNorm_1': {'mean': jnp.zeros((128,)), 'var': jnp.ones((128,))},
})
state = TrainState(step=0, model_state=FrozenDict({'batch_stats': batch_stats}))
_COMPILED.clear()  # scaffolding: count only the compiles of the sync calls, not of replicate
calls = 0
for epoch in range(5):
  state = sync_batch_stats(state)
  calls += 1
_report({"jit(_fun)"}, calls)  # pmap compiles are reported as jit(_fun) in this JAX
