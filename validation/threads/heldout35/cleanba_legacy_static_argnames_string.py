# source: https://github.com/vwxyzjn/cleanba/blob/d1f8979c33e4e1c3d4e67f460afcebb42b6889d4/cleanba/legacy_scripts/cleanba_impala_envpool_impala_atari_wrapper_last_action_reward.py
# expect: none
# runtime: COMPILES 1 CALLS 12
# why: static_argnames=("action_dim") is a plain string, not a tuple (missing comma), but jax accepts a single name as a string; action_dim is a constant int, so the actor step compiles once.

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
import time
from functools import partial
from typing import List, NamedTuple

import flax
import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np


class Transition(NamedTuple):
    obs: list
    dones: list
    actions: list
    logprobs: list
    values: list
    env_ids: list
    rewards: list
    truncations: list
    terminations: list
    firststeps: list


class Network(nn.Module):  # scaffolding: Dense stand-in for the Atari ResNet encoder
    channels: tuple
    hiddens: tuple

    @nn.compact
    def __call__(self, x):
        x = x.reshape((x.shape[0], -1)).astype(jnp.float32) / 255.0
        return nn.relu(nn.Dense(self.hiddens[0])(x))


class Critic(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(x)


class Actor(nn.Module):
    action_dim: int

    @nn.compact
    def __call__(self, x):
        return nn.Dense(self.action_dim)(x)


@flax.struct.dataclass
class AgentParams:
    network_params: flax.core.FrozenDict
    actor_params: flax.core.FrozenDict
    critic_params: flax.core.FrozenDict


class _Space:  # scaffolding: envpool stand-ins
    n = 6


class _Spec:
    class config:
        max_episode_steps = 50


class FakeEnvs:  # scaffolding: stand-in for an envpool Atari vector env
    def __init__(self, num_envs):
        self.num_envs = num_envs
        self.single_action_space = _Space()
        self.spec = _Spec()
        self.t = np.zeros(num_envs, np.int32)
        self.rng = np.random.RandomState(0)

    def reset(self):
        return self.rng.randint(0, 255, size=(self.num_envs, 4, 12, 12)).astype(np.uint8)

    def step(self, action):
        self.t += 1
        done = self.t >= 7
        self.t[done] = 0
        info = {"env_id": np.arange(self.num_envs), "elapsed_step": self.t.copy(),
                "terminated": done.astype(np.int32), "reward": np.ones(self.num_envs, np.float32)}
        return self.reset(), np.ones(self.num_envs, np.float32), done, info


@partial(jax.jit, static_argnames=("action_dim"))
def get_action_and_value(
    params: flax.core.FrozenDict,
    next_obs: np.ndarray,
    key: jax.random.PRNGKey,
    action_dim: int,
):
    next_obs = jnp.array(next_obs)
    hidden = Network((16, 32, 32), (64,)).apply(params.network_params, next_obs)  # scaffolding: Network() with stand-in sizes
    logits = Actor(action_dim).apply(params.actor_params, hidden)
    # sample action: Gumbel-softmax trick
    # see https://stats.stackexchange.com/questions/359442/sampling-from-a-categorical-distribution
    key, subkey = jax.random.split(key)
    u = jax.random.uniform(subkey, shape=logits.shape)
    action = jnp.argmax(logits - jnp.log(-jnp.log(u)), axis=1)
    logprob = jax.nn.log_softmax(logits)[jnp.arange(action.shape[0]), action]
    value = Critic().apply(params.critic_params, hidden)
    return next_obs, action, logprob, value.squeeze(), key


# scaffolding: a cut-down actor loop of the legacy script
envs = FakeEnvs(8)
key = jax.random.PRNGKey(0)
next_obs = envs.reset()
network = Network((16, 32, 32), (64,))
network_params = network.init(key, np.array(next_obs))
hidden0 = network.apply(network_params, np.array(next_obs))
params = AgentParams(network_params, Actor(6).init(key, hidden0), Critic().init(key, hidden0))
calls = 0
for step in range(12):
    next_obs, action, logprob, value, key = get_action_and_value(params, next_obs, key, envs.single_action_space.n)
    cpu_action = np.array(action)
    next_obs, next_reward, next_done, info = envs.step(cpu_action)
    calls += 1
_report({"jit(get_action_and_value)"}, calls)
