# source: https://github.com/ZaberKo/jaxrl-baselines/commit/e7e2ad8a68ca1eaa15d1d913743fe310abe3d60b
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: after the commit actor.apply (already replaced by a jax.jit wrapper, hashable and the same object every call) is passed as a static argument, so _evaluate compiles once for the 3 evaluations.

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

from functools import partial

import flax
import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import struct
from flax.training.train_state import TrainState


@struct.dataclass
class _BraxState:  # scaffolding: brax.envs State stand-in
    pipeline_state: jnp.ndarray
    obs: jnp.ndarray
    reward: jnp.ndarray
    done: jnp.ndarray
    info: dict


class _BatchedToyEnv:  # scaffolding: envs.create(env_id, batch_size=..., episode_length=...) stand-in
    observation_size = 3
    action_size = 1

    def __init__(self, batch_size, episode_length):
        self.batch_size = batch_size
        self.episode_length = episode_length

    def reset(self, rng):
        obs = jax.random.normal(rng, (self.batch_size, self.observation_size))
        zeros = jnp.zeros(self.batch_size)
        return _BraxState(pipeline_state=obs, obs=obs, reward=zeros, done=zeros.astype(bool),
                          info={"steps": zeros, "truncation": zeros})

    def step(self, state, action):
        obs = state.obs * 0.9 + action
        steps = state.info["steps"] + 1
        reward = -jnp.sum(obs ** 2, axis=-1)
        done = steps >= self.episode_length
        return state.replace(pipeline_state=obs, obs=obs, reward=reward, done=done,
                             info={"steps": steps, "truncation": done.astype(jnp.float32)})


class envs:  # scaffolding: `from brax import envs`
    @staticmethod
    def create(env_id, batch_size, episode_length):
        return _BatchedToyEnv(batch_size, min(episode_length, 20))  # scaffolding: short episodes


# cleanrl-blines/agent/utils.py after the commit: Evaluator
class Evaluator:
    def __init__(self, env_id, seed=0, num_envs=10, num_episodes=1000):
        # 创建并行环境
        self.env = envs.create(env_id, batch_size=num_envs, episode_length=num_episodes)
        self.num_envs = num_envs
        self.key = jax.random.PRNGKey(seed)

    # @jax.jit
    @partial(jax.jit, static_argnums=(0,2))
    def _evaluate(self, env_key, actor_apply, actor_state):
        # 初始化环境和评估器状态
        env_state = self.env.reset(rng=env_key)
        init_vals = (
            env_state,
            jnp.zeros(self.num_envs),
            jnp.zeros(self.num_envs),
            jnp.zeros(self.num_envs, dtype=bool),
            0,
        )

        # 定义条件函数
        def cond_fn(vals):
            _, _, _, done, _ = vals
            return ~done.all()

        # 定义循环主体函数
        def body_fn(vals):
            env_state, total_rewards, episode_lengths, done, step_count = vals
            action = actor_apply(actor_state.params, env_state.obs)
            env_state = self.env.step(env_state, action)
            reward = env_state.reward

            first_done = jnp.logical_and(~done, env_state.done)
            total_rewards = total_rewards + reward * (~done)
            total_rewards = total_rewards + env_state.reward * first_done

            episode_lengths = episode_lengths + (~done)

            return (
                env_state,
                total_rewards,
                episode_lengths,
                jnp.logical_or(done, env_state.done),
                step_count + 1,
            )

        # 执行 JAX 优化的 while 循环

        final_vals = jax.lax.while_loop(cond_fn, body_fn, init_vals)

        # 计算平均奖励和步长
        _, total_rewards, episode_lengths, _, _ = final_vals

        # 计算平均奖励和步长
        average_reward = jnp.mean(total_rewards)
        average_length = jnp.mean(episode_lengths)

        return average_reward, average_length
    
    def evaluate(self, actor, actor_state):
        key, env_key = jax.random.split(self.key)
        self.key = key
        average_reward, average_length = self._evaluate(env_key, actor.apply, actor_state)
        return average_reward, average_length


# cleanrl-blines/agent/ddpg.py: the actor and the evaluation call in main()
class Actor(nn.Module):
    action_dim: int
    action_scale: jnp.ndarray
    action_bias: jnp.ndarray

    @nn.compact
    def __call__(self, x):
        x = nn.Dense(256)(x)
        x = nn.relu(x)
        x = nn.Dense(256)(x)
        x = nn.relu(x)
        x = nn.Dense(self.action_dim)(x)
        x = nn.tanh(x)
        x = x * self.action_scale + self.action_bias
        return x


class TrainState(TrainState):
    target_params: flax.core.FrozenDict


key = jax.random.PRNGKey(0)  # scaffolding
key, actor_key = jax.random.split(key)  # scaffolding
evaluator = Evaluator("hopper", 0)  # scaffolding: args.env_id, args.seed
obs = jnp.zeros((1, 3))  # scaffolding: envs.reset(seed=args.seed)
actor = Actor(
    action_dim=1,  # scaffolding: np.prod(envs.single_action_space.shape)
    action_scale=jnp.array([1.0]),  # scaffolding: from envs.action_space
    action_bias=jnp.array([0.0]),  # scaffolding: from envs.action_space
)
actor_state = TrainState.create(
    apply_fn=actor.apply,
    params=actor.init(actor_key, obs),
    target_params=actor.init(actor_key, obs),
    tx=optax.adam(learning_rate=3e-4),
)
actor.apply = jax.jit(actor.apply)
try:  # scaffolding
    for global_step in range(3):  # scaffolding: the training loop's evaluation points
        average_reward, average_length = evaluator.evaluate(actor, actor_state)
    print(float(average_length))  # scaffolding
    _report({"jit(_evaluate)"}, 3)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
