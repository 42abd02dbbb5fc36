# source: https://github.com/google/paxml/commit/e4fad96057a62c605f8cd36263080dc40a851988
# expect: jit-in-loop-or-body at line 45
# runtime: COMPILES 5 CALLS 5
# why: The identity function handed to pjit is defined inside _broadcast_key, so each step passes pjit a new function object and the broadcast is traced and compiled again on every call.
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
import numpy as np
from jax.experimental import pjit

PRNGKey = jax.Array  # scaffolding

class PjitPartitioner:  # scaffolding: cut down to the state preprocess_prng_key uses

  def __init__(self):  # scaffolding
    self._global_mesh = jax.sharding.Mesh(np.array(jax.devices()[:1]), ('replica',))  # scaffolding
    self._broadcast_key_fn = None  # scaffolding

  def preprocess_prng_key(self, prng_key: PRNGKey) -> PRNGKey:
    """Preprocess the key before using it to run the partitioned function."""
    if not self._broadcast_key_fn:
      # The prng keys are already created on device with jax.random.split. We
      # broadcast it with an identity pjit function to avoid doing it in the
      # loop where a multi-slice program could be generated.
      def _broadcast_key(k):
        def _identity(x):
          return x

        rep_sharding = jax.sharding.NamedSharding(
            self._global_mesh, jax.sharding.PartitionSpec()
        )
        return pjit.pjit(
            _identity, in_shardings=rep_sharding, out_shardings=rep_sharding
        )(k)

      self._broadcast_key_fn = _broadcast_key

    return self._broadcast_key_fn(prng_key)


# scaffolding: the training loop calls preprocess_prng_key once per step
partitioner = PjitPartitioner()
prng_key = jax.random.PRNGKey(0)
calls = 0
for step in range(5):
  prng_key, train_key = jax.random.split(prng_key)
  train_key = partitioner.preprocess_prng_key(train_key)
  calls += 1
_report({"jit(_identity)"}, calls)
