# source: https://github.com/google-deepmind/acme/commit/1c1865ac83cc3c287605e8a1835ea05a776e5b14
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: With np.prod(x.shape) the reshape size is a Python integer at trace time, so the jitted apply compiles once.

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


from typing import Optional

import haiku as hk
import jax  # scaffolding
import jax.numpy as jnp
import numpy as np


class PolicyValueHead(hk.Module):  # scaffolding: stand-in for acme.jax.networks.PolicyValueHead
  def __init__(self, num_actions: int):
    super().__init__(name='policy_value_network')
    self._policy_layer = hk.Linear(num_actions)
    self._value_layer = hk.Linear(1)

  def __call__(self, inputs):
    return self._policy_layer(inputs), jnp.squeeze(self._value_layer(inputs), axis=-1)


# acme/agents/jax/impala/agent_test.py after the commit
class MyNetwork(hk.RNNCore):
  """A simple recurrent network for testing."""

  def __init__(self, num_actions: int):
    super().__init__(name='my_network')
    self._torso = hk.Sequential([
        lambda x: jnp.reshape(x, [np.prod(x.shape)]),
        hk.nets.MLP([50, 50]),
    ])
    self._core = hk.LSTM(20)
    self._head = PolicyValueHead(num_actions)

  def __call__(self, inputs, state):
    embeddings = self._torso(inputs)
    embeddings, new_state = self._core(embeddings, state)
    logits, value = self._head(embeddings)
    return (logits, value), new_state

  def initial_state(self, batch_size: int):
    return self._core.initial_state(batch_size)


def forward_fn(x, s):
  model = MyNetwork(5)  # scaffolding: spec.actions.num_values of the fake environment
  return model(x, s)


def initial_state_fn(batch_size: Optional[int] = None):
  model = MyNetwork(5)  # scaffolding
  return model.initial_state(batch_size)


# scaffolding: what the IMPALA actor does with forward_fn: jax.jit(hk.transform(forward_fn).apply, backend='cpu')
forward = hk.without_apply_rng(hk.transform(forward_fn))  # scaffolding
state = hk.without_apply_rng(hk.transform(initial_state_fn)).apply(None)  # scaffolding
obs = np.zeros((10, 5), np.float32)  # scaffolding: obs_shape=(10, 5) of fakes.DiscreteEnvironment
apply = jax.jit(forward.apply)  # scaffolding
try:  # scaffolding
  params = forward.init(jax.random.PRNGKey(0), obs, state)  # scaffolding
  for _ in range(3):  # scaffolding: three actor steps
    (logits, value), state = apply(params, obs, state)  # scaffolding
  _report({"jit(apply_fn)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
  print(f"ERROR {type(err).__name__}")  # scaffolding
