# source: https://github.com/EmptyJackson/policy-guided-diffusion/commit/7a8b375ef904294c84b61cf06d485089da561782
# expect: jit-in-loop-or-body at line 124
# runtime: COMPILES 3 CALLS 12
# why: GymRolloutWrapper.batch_rollout defines `@jax.jit @jax.vmap _policy_step` inside the method, closing over agent_state, so every evaluation builds and compiles a new policy step: 3 compiles for 3 evaluations of 4 env steps.
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
import jax.numpy as jnp
import numpy as onp
from typing import NamedTuple, Optional

import flax.linen as nn  # scaffolding: for the policy stand-in
from flax import struct  # scaffolding


class _VecEnv:  # scaffolding: stands in for gym.vector.make(<D4RL env>) wrapped in RecordEpisodeStatistics
    single_observation_space = None  # scaffolding

    def __init__(self, num_envs):  # scaffolding
        self.num_envs, self.t = num_envs, 0  # scaffolding

    def reset(self, seed):  # scaffolding
        self.t = 0  # scaffolding
        return onp.asarray(seed, onp.float32)[:, None].repeat(3, axis=1) / 1e9  # scaffolding: 3-dim observations

    def step(self, action):  # scaffolding
        self.t += 1  # scaffolding
        obs = onp.full((self.num_envs, 3), 0.1 * self.t, onp.float32)  # scaffolding
        return obs, onp.ones(self.num_envs, onp.float32), onp.zeros(self.num_envs, bool), [dict() for _ in range(self.num_envs)]  # scaffolding


class d4rl:  # scaffolding: d4rl is not installed
    @staticmethod  # scaffolding
    def get_normalized_score(env_name, returns):  # scaffolding
        return returns  # scaffolding


def get_gym_env(dataset_name: str, num_env_workers: int):  # scaffolding: the repo's version calls gym.vector.make and reads the D4RL spec
    return _VecEnv(num_env_workers), False, 4  # scaffolding: (env, has_dict_obs, max_episode_steps)


# --- util/data.py, util/jax.py (at the commit) ---
class Transition(NamedTuple):
    done: jnp.ndarray
    action: jnp.ndarray
    value: jnp.ndarray
    reward: jnp.ndarray
    log_prob: jnp.ndarray
    obs: jnp.ndarray
    next_obs: jnp.ndarray
    info: jnp.ndarray


def tree_stack(trees):
    """Takes a list of trees and stacks every corresponding leaf.
    For example, given two trees ((a, b), c) and ((a', b'), c'), returns
    ((stack(a, a'), stack(b, b')), stack(c, c')).
    Useful for turning a list of objects into something you can feed to a
    vmapped function.
    """
    leaves_list = []
    treedef_list = []
    for tree in trees:
        leaves, treedef = jax.tree_util.tree_flatten(tree)
        leaves_list.append(leaves)
        treedef_list.append(treedef)

    grouped_leaves = zip(*leaves_list)
    result_leaves = [jnp.stack(l) for l in grouped_leaves]
    return treedef_list[0].unflatten(result_leaves)


# --- environments/rollout.py (at the commit) ---
class GymRolloutWrapper:
    def __init__(
        self,
        env_name: str,
        num_env_steps: Optional[int] = None,
        agent_apply_fn: Optional[callable] = None,
        num_env_workers: Optional[int] = None,
    ):
        self.env_name = env_name
        self.env, self.convert_dict_obs, max_episode_steps = get_gym_env(
            env_name, num_env_workers
        )
        self.agent_apply_fn = agent_apply_fn
        if num_env_steps is None:
            self.num_env_steps = max_episode_steps
        else:
            self.num_env_steps = num_env_steps

    def batch_reset(self, rng, num_env_workers):
        """Reset a single environment over a batch of seeds."""
        seeds = jax.random.split(rng, num_env_workers)
        reset_obs = self.env.reset(seed=[int(i[0]) for i in seeds])
        if self.convert_dict_obs:
            reset_obs = stack_dict_obs(reset_obs)
        return reset_obs

    def batch_rollout(self, rng, agent_state, last_obs):
        """Evaluate an agent on a single environment over a batch of seeds and environment states."""

        @jax.jit
        @jax.vmap
        def _policy_step(rng, obs):
            # --- Compute next action for a single state ---
            pi = self.agent_apply_fn(agent_state.params, obs)
            rng, _rng = jax.random.split(rng)
            action, log_prob = pi.sample_and_log_prob(seed=_rng)
            action = jnp.nan_to_num(action)
            # Sum action dimension log probabilities
            log_prob = log_prob.sum(axis=-1)
            return rng, action, log_prob

        transition_list = []
        num_env_workers = last_obs.shape[0]
        rng = jax.random.split(rng, num_env_workers)
        returned = [False for _ in range(num_env_workers)]
        for _ in range(self.num_env_steps):
            # --- Take step in environment ---
            rng, action, log_prob = _policy_step(rng, jnp.array(last_obs))
            obs, reward, done, info = self.env.step(onp.array(action))
            if self.convert_dict_obs:
                obs = stack_dict_obs(obs)

            # --- Track cumulative reward ---
            new_returned = []
            returned_episode_returns = []
            for worker_id, worker_returned in enumerate(returned):
                if "episode" in info[worker_id].keys() and not worker_returned:
                    returned_episode_returns.append(info[worker_id]["episode"]["r"])
                    new_returned.append(True)
                else:
                    returned_episode_returns.append(jnp.nan)
                    new_returned.append(worker_returned)
            returned = new_returned
            returned_episode_returns = jnp.array(returned_episode_returns)
            info = {
                "returned_episode_returns": returned_episode_returns,
                "returned_episode_scores": d4rl.get_normalized_score(
                    self.env_name, returned_episode_returns
                )
                * 100.0,
            }

            # --- Construct transition ---
            transition_list.append(
                Transition(
                    obs=last_obs,
                    action=action,
                    reward=jnp.expand_dims(reward, axis=-1),
                    done=jnp.expand_dims(done, axis=-1),
                    next_obs=obs,
                    log_prob=jnp.expand_dims(log_prob, axis=-1),
                    value=None,
                    info=info,
                )
            )
            last_obs = obs
        return tree_stack(transition_list)

    @property
    def obs_shape(self):
        """Get the shape of the observation."""
        if self.convert_dict_obs:
            return dict_obs_shape(self.env.single_observation_space)
        return self.env.single_observation_space.shape

    @property
    def action_dim(self):
        """Get the dimension of the action space."""
        return self.env.single_action_space.shape[0]

    @property
    def action_lims(self):
        """Get the action limits for the environment."""
        return (
            self.env.single_action_space.low[0],
            self.env.single_action_space.high[0],
        )

    def set_apply_fn(self, agent_apply_fn):
        self.agent_apply_fn = agent_apply_fn


# --- util/eval.py (at the commit) ---

def eval_agents(rng, env, train_state, num_env_workers):
    rng, _rng = jax.random.split(rng)
    last_obs = env.batch_reset(_rng, num_env_workers)
    traj_batch = env.batch_rollout(rng, train_state, last_obs)
    return traj_batch


@struct.dataclass  # scaffolding: a pytree stand-in for the distrax policy distribution the repo's actor returns
class _TanhNormal:  # scaffolding
    mean: jnp.ndarray  # scaffolding
    log_std: jnp.ndarray  # scaffolding

    def sample_and_log_prob(self, seed):  # scaffolding
        eps = jax.random.normal(seed, self.mean.shape)  # scaffolding
        return jnp.tanh(self.mean + jnp.exp(self.log_std) * eps), -0.5 * eps ** 2 - self.log_std  # scaffolding


class _Actor(nn.Module):  # scaffolding: a small actor instead of the repo's TD3/IQL networks
    @nn.compact  # scaffolding
    def __call__(self, obs):  # scaffolding
        return _TanhNormal(nn.Dense(2)(obs), jnp.full((2,), -1.0))  # scaffolding


class _TrainState(NamedTuple):  # scaffolding: only .params is read by batch_rollout
    params: dict  # scaffolding


network = _Actor()  # scaffolding
eval_apply_fn = network.apply  # scaffolding: train_agent.py's eval_apply_fn = network.apply
env = GymRolloutWrapper("hopper-medium-v2", num_env_workers=2)  # scaffolding: train_agent.py's eval env, 2 workers
env.set_apply_fn(jax.jit(eval_apply_fn))  # scaffolding: as train_agent.py does
rng = jax.random.PRNGKey(0)  # scaffolding
train_state = _TrainState(network.init(rng, jnp.zeros(3)))  # scaffolding
for step_idx in range(3):  # scaffolding: train_agent.py's loop with eval_rate=1; the agent update is cut
    train_state = _TrainState(jax.tree_util.tree_map(lambda p: p + 0.01, train_state.params))  # scaffolding: stands in for _agent_train_step_fn
    rng, _rng = jax.random.split(rng)  # scaffolding
    eval_traj_batch = eval_agents(rng, env, train_state, 2)  # scaffolding: train_agent.py's eval call
_report({"jit(_policy_step)"}, 12)  # scaffolding: 3 evaluations x 4 env steps
