# source: https://github.com/tdgfrost/pygment/commit/c8ea17d65a387d1ad0d7aed86a672c37b16a7510
# expect: none
# runtime: COMPILES 1 CALLS 6
# why: _sample_action_jit is a @staticmethod stacked on @jit and the key default is a PRNGKey built at definition time; both look odd, but every step passes same-shaped logits, so it compiles once.

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
from collections import namedtuple
from typing import Any, Optional

import flax.linen as nn_linen
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import struct
from jax import jit, nn


@struct.dataclass
class Model:  # scaffolding: net.py Model trimmed to network/params and __call__
    network: nn_linen.Module = struct.field(pytree_node=False)
    params: Any

    def __call__(self, *args, **kwargs):
        return self.network.apply({'params': self.params}, *args, **kwargs)


class _ActorNet(nn_linen.Module):  # scaffolding: stands in for net.py ActorNet
    action_dim: int

    @nn_linen.compact
    def __call__(self, x):
        h = nn_linen.relu(nn_linen.Dense(32)(x))
        return {'MLP_0': h}, nn_linen.Dense(self.action_dim)(h)


class PPOAgent:
    """
    IQL Agent.
    """

    def __init__(self, seed: int, observations: np.ndarray, action_dim: int):  # (optimisers, value net, paths trimmed)
        rng = jax.random.PRNGKey(seed)
        self.rng, self.actor_key, self.value_key = jax.random.split(rng, 3)
        self.action_dim = action_dim
        net = _ActorNet(self.action_dim)  # scaffolding: Model.create(ActorNet(hidden_dims, self.action_dim), ...)
        self.actor = Model(net, net.init(self.actor_key, observations)['params'])  # scaffolding

    def sample_action(self, state, key=jax.random.PRNGKey(123)):
        """
        Chooses an action based on the current state.

        :param state: the current state.
        :param key: a PRNGKey.
        :return: an action (as an integer if a single state, or an Array if multiple states)
        """

        _, logits = self.actor(state)

        action, logprobs = self._sample_action_jit(logits, key)
        return np.array(action), np.array(logprobs)

    @staticmethod
    @jit
    def _sample_action_jit(logits, key):
        log_probs = nn.log_softmax(logits, axis=-1)
        action = jax.random.categorical(key, logits, axis=-1)
        return action, log_probs


# scaffolding: a CartPole-sized rollout with stand-in observations
agent = PPOAgent(123, np.zeros((1, 4), np.float32), 2)
obs_rng = np.random.default_rng(0)
key = jax.random.PRNGKey(0)
n_steps = 6
for step in range(n_steps):
    key, subkey = jax.random.split(key)
    state = obs_rng.normal(size=(4,)).astype(np.float32)
    action, logprobs = agent.sample_action(state, subkey)
_report({"jit(_sample_action_jit)"}, n_steps)
