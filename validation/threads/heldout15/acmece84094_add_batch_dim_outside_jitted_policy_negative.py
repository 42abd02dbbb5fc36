# source: https://github.com/google-deepmind/acme/commit/ce8409450f943f6a46ba8131671cfc593798af6a
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: select_action adds the batch dimension eagerly before calling the jitted policy; that is an extra eager dispatch per step but every observation has the same shape, so the policy compiles once for 5 calls.

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
from typing import Optional

import haiku as hk
import jax
import jax.numpy as jnp
import numpy as np
from jax import tree_util


# acme/jax/utils.py
def add_batch_dim(values):
  return tree_util.tree_map(lambda x: jnp.expand_dims(x, axis=0), values)


def to_numpy_squeeze(values):
  """Converts to numpy and squeezes out dummy batch dimension."""
  return tree_util.tree_map(lambda x: np.array(x).squeeze(axis=0), values)


# acme/agents/jax/actors.py (before the commit)
class FeedForwardActor:
  """A simple feed-forward actor implemented in JAX."""

  def __init__(
      self,
      policy,
      rng: hk.PRNGSequence,
      variable_client,
      adder: Optional[object] = None,
  ):
    self._rng = rng
    self._policy = jax.jit(policy, backend='cpu')

    self._adder = adder
    self._client = variable_client

  def select_action(self, observation):
    key = next(self._rng)
    # TODO(b/161332815): Make JAX Actor work with batched or unbatched inputs.
    observation = utils.add_batch_dim(observation)
    action = self._policy(self._client.params, key, observation)
    return utils.to_numpy_squeeze(action)


# scaffolding: a linear epsilon-greedy policy, a fixed variable client, and 5 observations
import types  # scaffolding
utils = types.SimpleNamespace(add_batch_dim=add_batch_dim, to_numpy_squeeze=to_numpy_squeeze)


def policy(params, key, observation):
  q = observation @ params
  return jnp.where(jax.random.uniform(key, (q.shape[0],)) < 0.05,
                   jax.random.randint(key, (q.shape[0],), 0, q.shape[1]), jnp.argmax(q, axis=-1))


client = types.SimpleNamespace(params=jnp.ones((4, 3)))
actor = FeedForwardActor(policy, hk.PRNGSequence(0), client)
calls = 0
for t in range(5):
  action = actor.select_action(np.random.RandomState(t).randn(4).astype(np.float32))
  calls += 1
_report({"jit(policy)", "jit(batched_policy)"}, calls)
