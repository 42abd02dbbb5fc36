# source: https://github.com/vwxyzjn/cleanba/blob/d1f8979c33e4e1c3d4e67f460afcebb42b6889d4/cleanba/cleanba_ppo.py
# expect: none
# runtime: COMPILES 2 CALLS 85
# why: cleanba's rollout() defines @jax.jit get_action_and_value and prepare_data inside the function body (once per actor thread) and calls them for every step and update; each compiles once, since rollout runs once per thread and the storage list keeps its length.

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


class Args:  # scaffolding: tyro Args, cut down
    local_num_envs = 8
    num_steps = 16
    num_updates = 4
    channels = (16, 32, 32)
    hiddens = (64,)


def rollout(
    key: jax.random.PRNGKey,
    args,
    params,
    learner_devices,
):
    envs = FakeEnvs(args.local_num_envs)  # scaffolding: make_env(...)()
    global_step = 0

    @jax.jit
    def get_action_and_value(
        params: flax.core.FrozenDict,
        next_obs: np.ndarray,
        key: jax.random.PRNGKey,
    ):
        next_obs = jnp.array(next_obs)
        hidden = Network(args.channels, args.hiddens).apply(params.network_params, next_obs)
        logits = Actor(envs.single_action_space.n).apply(params.actor_params, hidden)
        # sample action: Gumbel-softmax trick
        # see https://stats.stackexchange.com/questions/359442/sampling-from-a-categorical-distribution
        key, subkey = jax.random.split(key)
        u = jax.random.uniform(subkey, shape=logits.shape)
        action = jnp.argmax(logits - jnp.log(-jnp.log(u)), axis=1)
        logprob = jax.nn.log_softmax(logits)[jnp.arange(action.shape[0]), action]
        value = Critic().apply(params.critic_params, hidden)
        return next_obs, action, logprob, value.squeeze(), key

    # put data in the last index
    episode_returns = np.zeros((args.local_num_envs,), dtype=np.float32)
    returned_episode_returns = np.zeros((args.local_num_envs,), dtype=np.float32)
    next_obs = envs.reset()
    next_done = jnp.zeros(args.local_num_envs, dtype=jax.numpy.bool_)

    @jax.jit
    def prepare_data(storage: List[Transition]) -> Transition:
        return jax.tree_util.tree_map(lambda *xs: jnp.split(jnp.stack(xs), len(learner_devices), axis=1), *storage)  # scaffolding: jax.tree_map was removed

    n_calls = 0  # scaffolding
    for update in range(1, args.num_updates + 2):
        storage = []
        for _ in range(0, args.num_steps):
            cached_next_obs = next_obs
            cached_next_done = next_done
            global_step += len(next_done)
            cached_next_obs, action, logprob, value, key = get_action_and_value(params, cached_next_obs, key)
            n_calls += 1  # scaffolding
            cpu_action = np.array(action)
            next_obs, next_reward, next_done, info = envs.step(cpu_action)
            env_id = info["env_id"]
            truncated = info["elapsed_step"] >= envs.spec.config.max_episode_steps
            storage.append(
                Transition(
                    obs=cached_next_obs,
                    dones=cached_next_done,
                    actions=action,
                    logprobs=logprob,
                    values=value,
                    env_ids=env_id,
                    rewards=next_reward,
                    truncations=truncated,
                    terminations=info["terminated"],
                    firststeps=info["elapsed_step"] == 0,
                )
            )
            episode_returns[env_id] += info["reward"]
            returned_episode_returns[env_id] = np.where(
                info["terminated"] + truncated, episode_returns[env_id], returned_episode_returns[env_id]
            )
            episode_returns[env_id] *= (1 - info["terminated"]) * (1 - truncated)

        partitioned_storage = prepare_data(storage)
        n_calls += 1  # scaffolding
    return n_calls


# scaffolding: parameter init as in the script's __main__, cut down
args = Args()
key = jax.random.PRNGKey(0)
obs0 = FakeEnvs(args.local_num_envs).reset()
network = Network(args.channels, args.hiddens)
network_params = network.init(key, np.array(obs0))
hidden0 = network.apply(network_params, np.array(obs0))
params = AgentParams(network_params, Actor(6).init(key, hidden0), Critic().init(key, hidden0))
calls = rollout(key, args, params, jax.devices()[:1])
_report({"jit(get_action_and_value)", "jit(prepare_data)"}, calls)
