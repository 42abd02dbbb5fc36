# source: https://github.com/tdgfrost/pygment/commit/02aae6deef838ed0d069251c4fc3b58d9a432fc2
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: montecarlodropout_value is jitted with the whole network object as an argument and an unrolled Python sampling loop inside; the Model is a flax struct dataclass pytree (module static, params traced), so new target params each epoch reuse one compile.

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

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
from flax import struct


@struct.dataclass
class Model:  # scaffolding: core/net.py Model trimmed to network/params and __call__
    network: nn.Module = struct.field(pytree_node=False)
    params: Any

    def __call__(self, *args, **kwargs):
        return self.network.apply({'params': self.params}, *args, **kwargs)


class _ValueNet(nn.Module):  # scaffolding: stands in for core/net.py ValueNet with dropout
    @nn.compact
    def __call__(self, observations, deterministic=False):
        h = nn.relu(nn.Dense(32)(observations))
        h = nn.Dropout(0.1)(h, deterministic=deterministic)
        return {'MLP_0': h}, jnp.squeeze(nn.Dense(1)(h), -1)


@jax.jit
def montecarlodropout_value(network, states, random_key, actions=None):
    sampled_values = []
    for _ in range(20):  # scaffolding: range(100) in the commit, cut down for run time
        random_key, rng = jax.random.split(random_key)
        sampled_values += [jnp.expand_dims(
            network(states, rngs={'dropout': rng})[1], 0)]
    sampled_values = jnp.concatenate(sampled_values)

    return jnp.mean(sampled_values, 0), jnp.std(sampled_values, 0)


# scaffolding: IQL_train.py calls this once per epoch on a fixed-size batch, with the target network after each sync
net = _ValueNet()
params = net.init({'params': jax.random.PRNGKey(0), 'dropout': jax.random.PRNGKey(1)}, jnp.zeros((1, 4)))['params']
target_value = Model(net, params)
data_rng = np.random.default_rng(0)
key = jax.random.PRNGKey(2)
n_epochs = 4
for epoch in range(n_epochs):
    key, target_value_key = jax.random.split(key)
    next_states = jnp.asarray(data_rng.normal(size=(256, 4)), jnp.float32)
    next_state_values, _ = montecarlodropout_value(target_value, next_states, target_value_key)
    # scaffolding: agent.sync_target(...) replaces the params each epoch
    target_value = target_value.replace(params=jax.tree_util.tree_map(lambda p: p * 0.99, target_value.params))
jax.block_until_ready(next_state_values)
_report({"jit(montecarlodropout_value)"}, n_epochs)
