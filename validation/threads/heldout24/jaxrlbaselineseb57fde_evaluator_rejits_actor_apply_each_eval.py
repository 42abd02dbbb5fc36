# source: https://github.com/ZaberKo/jaxrl-baselines/commit/eb57fdecd779dc0039064854e144971359964a4d
# expect: jit-in-loop-or-body at line 74
# runtime: COMPILES 3 CALLS 18
# why: after the commit Actor.apply works (self static), but Evaluator_for_gymnasium.evaluate wraps actor.apply in a fresh jax.jit on every evaluation, so each evaluation traces and compiles jit(apply) again: 3 compiles for 18 calls.

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
from flax.training.train_state import TrainState


class _VectorEnv:  # scaffolding: gym.vector.SyncVectorEnv of CartPole stand-in (4-dim obs, 2 actions, 6-step episodes)
    def __init__(self, num_envs):
        self.num_envs = num_envs
        self.t = np.zeros(num_envs, int)

    def reset(self, seed=None):
        self.t[:] = 0
        return np.zeros((self.num_envs, 4), np.float32), {}

    def step(self, actions):
        self.t += 1
        done = self.t >= 6
        infos = {}
        if done.any():
            infos["final_info"] = [{"episode": {"r": float(self.t[i]), "l": int(self.t[i])}} if done[i] else None
                                   for i in range(self.num_envs)]
            infos["final_info"] = [i for i in infos["final_info"] if i is not None]
            self.t[done] = 0
        obs = np.tile(self.t[:, None].astype(np.float32), (1, 4))
        return obs, np.ones(self.num_envs), done, np.zeros(self.num_envs, bool), infos


# cleanrl-blines/agent/utils.py: Evaluator_for_gymnasium
class Evaluator_for_gymnasium:
    def __init__(self, env, num_envs, seed):
        # 初始化并行环境
        self.env = env
        self.num_envs = num_envs
        self.key = jax.random.PRNGKey(seed)

    def evaluate(self, actor, actor_state):
        key, env_key = jax.random.split(self.key)
        obs, _ = self.env.reset(seed=env_key)
        rewards = []
        lengths = []
        self.key = key
        actor.apply = jax.jit(actor.apply)  # JIT 编译

        while len(rewards) < self.num_envs:
            # 计算动作
            q_values = actor.apply(actor_state.params, obs)
            actions = q_values.argmax(axis=-1)

            # 执行动作
            next_obs, _, _, _, infos = self.env.step(actions)

            if "final_info" in infos:
                for info in infos["final_info"]:
                    if "episode" in info:
                        rewards.append(info["episode"]["r"])
                        lengths.append(info["episode"]["l"])

            obs = next_obs  # 更新当前的状态

        rewards = jnp.array(rewards)
        lengths = jnp.array(lengths)

        return jnp.mean(rewards), jnp.mean(lengths)


Evaluator = Evaluator_for_gymnasium


# cleanrl-blines/agent/dqn.py after the commit
class QNetwork(nn.Module):
    action_dim: int

    @nn.compact
    def __call__(self, x: jnp.ndarray):
        x = nn.Dense(120)(x)
        x = nn.relu(x)
        x = nn.Dense(84)(x)
        x = nn.relu(x)
        x = nn.Dense(self.action_dim)(x)
        return x


class Actor:
    def __init__(
        self,
        q_network,
    ):
        self.q_network_apply = q_network.apply

    @partial(jax.jit, static_argnums=(0,))
    def apply(self, params, obs):
        q_values = self.q_network_apply(params, obs)
        actions = q_values.argmax(axis=-1)
        return actions


class TrainState(TrainState):
    target_params: flax.core.FrozenDict


key = jax.random.PRNGKey(0)  # scaffolding: args.seed
key, q_key = jax.random.split(key, 2)
eval_env = _VectorEnv(2)  # scaffolding: gym.vector.SyncVectorEnv([make_env(...)] * args.eval_env_nums)
evaluator = Evaluator(eval_env, 2, 0)
envs = _VectorEnv(1)  # scaffolding
obs, _ = envs.reset(seed=0)

q_network = QNetwork(action_dim=2)
q_state = TrainState.create(
    apply_fn=q_network.apply,
    params=q_network.init(q_key, obs),
    target_params=q_network.init(q_key, obs),
    tx=optax.adam(learning_rate=2.5e-4),
)
actor = Actor(q_network)
q_network.apply = jax.jit(q_network.apply)
try:  # scaffolding
    for global_step in (100, 200, 300):  # scaffolding: the training loop, evaluating when global_step % 100 == 0
        average_reward, average_length = evaluator.evaluate(actor, q_state)
    print(float(average_length))  # scaffolding
    _report({"jit(apply)"}, 18)  # scaffolding: 3 evaluations x 6 actor.apply calls
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
