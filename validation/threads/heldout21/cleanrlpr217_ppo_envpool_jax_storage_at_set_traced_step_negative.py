# source: https://github.com/vwxyzjn/cleanrl/pull/217
# expect: none
# runtime: COMPILES 2 CALLS 15
# why: get_action_and_value writes the rollout storage with obs.at[step].set(x) and returns the new buffers, with step a traced argument, so 12 rollout steps compile it once, and compute_gae (a Python loop unrolled at trace time) compiles once for 3 updates; the .at[].set copies rather than mutating in place (the review point), which is correct because the results are returned.
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
# vwxyzjn/cleanrl PR #217 "Jax ppo envpool" (branch commit 30c4dde3, "successful prototype"): cleanrl/ppo_continuous_action_envpool_jax.py
from collections import deque
from types import SimpleNamespace  # scaffolding
from typing import Sequence

import flax
import flax.linen as nn
from flax.linen.initializers import orthogonal, constant
import jax
import jax.numpy as jnp
import numpy as np
import optax


class Envs:  # scaffolding: envpool MuJoCo vector env stand-in (float64 observations, bool dones, as envpool returns)
    def __init__(self, num_envs, obs_dim=3, act_dim=1):
        self.num_envs = num_envs
        self.rng = np.random.default_rng(0)
        self.single_observation_space = SimpleNamespace(shape=(obs_dim,), sample=lambda: np.zeros(obs_dim, np.float32))
        self.single_action_space = SimpleNamespace(shape=(act_dim,))

    def reset(self):
        return self.rng.normal(size=(self.num_envs,) + self.single_observation_space.shape)

    def step(self, action):
        obs = self.rng.normal(size=(self.num_envs,) + self.single_observation_space.shape)
        return obs, np.ones(self.num_envs), np.zeros(self.num_envs, dtype=bool), {}

class Critic(nn.Module):
    @nn.compact
    def __call__(self, x):
        critic = nn.Dense(64, kernel_init=orthogonal(np.sqrt(2)), bias_init=constant(0.0))(x)
        critic = nn.tanh(critic)
        critic = nn.Dense(64, kernel_init=orthogonal(np.sqrt(2)), bias_init=constant(0.0))(critic)
        critic = nn.tanh(critic)
        critic = nn.Dense(1, kernel_init=orthogonal(1), bias_init=constant(0.0))(critic)
        return critic


class Actor(nn.Module):
    action_dim: Sequence[int]
    @nn.compact
    def __call__(self, x):
        actor_mean = nn.Dense(64, kernel_init=orthogonal(np.sqrt(2)), bias_init=constant(0.0))(x)
        actor_mean = nn.tanh(actor_mean)
        actor_mean = nn.Dense(64, kernel_init=orthogonal(np.sqrt(2)), bias_init=constant(0.0))(actor_mean)
        actor_mean = nn.tanh(actor_mean)
        actor_mean = nn.Dense(self.action_dim, kernel_init=orthogonal(0.01), bias_init=constant(0.0))(actor_mean)
        actor_logstd = self.param('actor_logstd', constant(0.0), (1, self.action_dim))
        return actor_mean, actor_logstd


@flax.struct.dataclass
class AgentParams:
    actor_params: flax.core.FrozenDict
    critic_params: flax.core.FrozenDict


if __name__ == "__main__":
    args = SimpleNamespace(num_envs=2, num_steps=4, total_timesteps=24, gamma=0.99, gae_lambda=0.95, max_grad_norm=0.5, learning_rate=3e-4, anneal_lr=False, seed=1)  # scaffolding: parse_args()
    args.batch_size = args.num_envs * args.num_steps  # scaffolding
    global_step = 0  # scaffolding
    key = jax.random.PRNGKey(args.seed)
    key, actor_key, critic_key = jax.random.split(key, 3)
    envs = Envs(args.num_envs)  # scaffolding: envpool.make(...) and the gym wrappers

    actor = Actor(action_dim=np.prod(envs.single_action_space.shape))
    actor_params = actor.init(actor_key, envs.single_observation_space.sample())
    actor.apply = jax.jit(actor.apply)
    critic = Critic()
    critic_params = critic.init(critic_key, envs.single_observation_space.sample())
    critic.apply = jax.jit(critic.apply)

    agent_optimizer = optax.chain(
        optax.clip_by_global_norm(args.max_grad_norm),
        optax.inject_hyperparams(optax.adam)(learning_rate=args.learning_rate, eps=1e-5),
    )
    agent_params = AgentParams(
        actor_params,
        critic_params,
    )
    agent_optimizer_state = agent_optimizer.init(agent_params)

    # ALGO Logic: Storage setup
    obs = jnp.zeros((args.num_steps, args.num_envs) + envs.single_observation_space.shape)
    actions = jnp.zeros((args.num_steps, args.num_envs) + envs.single_action_space.shape)
    logprobs = jnp.zeros((args.num_steps, args.num_envs))
    rewards = np.zeros((args.num_steps, args.num_envs))
    dones = jnp.zeros((args.num_steps, args.num_envs))
    values = jnp.zeros((args.num_steps, args.num_envs))
    advantages = jnp.zeros((args.num_steps, args.num_envs))
    avg_returns = deque(maxlen=20)

    @jax.jit
    def get_action_and_value(x, obs, actions, logprobs, values, step, agent_params, key):
        obs = obs.at[step].set(x)  # inside jit() `x = x.at[idx].set(y)` is in-place.
        action_mean, action_logstd = actor.apply(agent_params.actor_params, x)
        # action_logstd = (jnp.ones_like(action_mean) * action_logstd)
        action_std = jnp.exp(action_logstd)
        key, subkey = jax.random.split(key)
        action = action_mean + action_std * jax.random.normal(subkey, shape=action_mean.shape)
        logprob = -0.5 * ((action - action_mean) / action_std) ** 2 - 0.5 * jnp.log(2.0 * jnp.pi) - action_logstd
        entropy = action_logstd + 0.5 * jnp.log(2.0 * jnp.pi * jnp.e)
        value = critic.apply(agent_params.critic_params, x)
        actions = actions.at[step].set(action)
        logprobs = logprobs.at[step].set(logprob.sum(1))
        values = values.at[step].set(value.squeeze())
        return x, obs, actions, logprobs, values, action, logprob, entropy, value, key

    @jax.jit
    def get_action_and_value2(x, action, agent_params):
        action_mean, action_logstd = actor.apply(agent_params.actor_params, x)
        action_std = jnp.exp(action_logstd)
        logprob = -0.5 * ((action - action_mean) / action_std) ** 2 - 0.5 * jnp.log(2.0 * jnp.pi) - action_logstd
        entropy = action_logstd + 0.5 * jnp.log(2.0 * jnp.pi * jnp.e)
        value = critic.apply(agent_params.critic_params, x)
        return logprob.sum(1), entropy, value

    @jax.jit
    def compute_gae(next_obs, next_done, rewards, dones, values, advantages, agent_params):
        advantages = advantages.at[:].set(0.0)  # reset advantages
        next_value = critic.apply(agent_params.critic_params, next_obs).squeeze()
        lastgaelam = 0
        for t in reversed(range(args.num_steps)):
            if t == args.num_steps - 1:
                nextnonterminal = 1.0 - next_done
                nextvalues = next_value
            else:
                nextnonterminal = 1.0 - dones[t + 1]
                nextvalues = values[t + 1]
            delta = rewards[t] + args.gamma * nextvalues * nextnonterminal - values[t]
            lastgaelam = delta + args.gamma * args.gae_lambda * nextnonterminal * lastgaelam
            advantages = advantages.at[t].set(lastgaelam)
        returns = advantages + values
        return jax.lax.stop_gradient(advantages), jax.lax.stop_gradient(returns)

    next_obs = envs.reset()
    next_done = np.zeros(args.num_envs)
    num_updates = args.total_timesteps // args.batch_size

    for update in range(1, num_updates + 1):
        for step in range(0, args.num_steps):
            global_step += 1 * args.num_envs
            next_obs, obs, actions, logprobs, values, action, logprob, entropy, value, key = get_action_and_value(
                next_obs, obs, actions, logprobs, values, step, agent_params, key
            )

            # TRY NOT TO MODIFY: execute the game and log data.
            next_obs, reward, next_done, info = envs.step(np.array(action))
            rewards[step] = reward

        advantages, returns = compute_gae(next_obs, next_done, rewards, dones, values, advantages, agent_params)
    _report({"jit(get_action_and_value)", "jit(compute_gae)"}, num_updates * (args.num_steps + 1))  # scaffolding
