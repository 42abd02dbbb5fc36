# source: https://github.com/google/evojax/pull/7
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: SimManager wraps its pmapped rollout in jax.jit (the PR removes this outer jit as unnecessary and warned about); with two host devices on jax 0.10.2 the jit-of-pmap rollout compiles once (as jit(rollout)) for 3 ES iterations.
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
import os  # scaffolding
os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=2"  # scaffolding: two CPU devices, so the multi-device branch runs
from functools import partial
from typing import Union

import jax
import jax.numpy as jnp
from flax.struct import dataclass
from jax.tree_util import tree_map


@dataclass
class TaskState:  # scaffolding: evojax.task.base.TaskState
    obs: jnp.ndarray  # scaffolding
    t: jnp.ndarray  # scaffolding


PolicyState = TaskState  # scaffolding


class ToyVecTask:  # scaffolding: a vectorized task (move towards the origin)
    multi_agent_training = False  # scaffolding
    max_steps = 20  # scaffolding

    def reset(self, keys):  # scaffolding
        return TaskState(obs=jax.vmap(lambda k: jax.random.normal(k, (4,)))(keys), t=jnp.zeros(keys.shape[0], jnp.int32))  # scaffolding

    def step(self, state, actions):  # scaffolding
        obs = state.obs + 0.1 * actions  # scaffolding
        return TaskState(obs=obs, t=state.t + 1), -jnp.sum(obs ** 2, axis=-1), (state.t + 1 >= self.max_steps).astype(jnp.int32)  # scaffolding


class LinearPolicy:  # scaffolding: a PolicyNetwork with a flat parameter vector per individual
    def get_actions(self, t_states, params, p_states):  # scaffolding
        return jnp.tanh(jnp.einsum('bi,bij->bj', t_states.obs, params.reshape(-1, 4, 4))), p_states  # scaffolding


class DummyNormalizer:  # scaffolding: ObsNormalizer(dummy=True)
    def normalize_obs(self, obs, obs_params):  # scaffolding
        return obs  # scaffolding


@jax.jit
def split_params_for_pmap(param: jnp.ndarray) -> jnp.ndarray:
    return jnp.stack(jnp.split(param, jax.local_device_count()))


@jax.jit
def split_states_for_pmap(
        state: Union[TaskState, PolicyState]) -> Union[TaskState, PolicyState]:
    return tree_map(split_params_for_pmap, state)


class SimManager:  # scaffolding: only the rollout set-up of SimManager.__init__
    def __init__(self, policy_net, train_vec_task):
        self.obs_normalizer = DummyNormalizer()  # scaffolding
        self._num_device = jax.local_device_count()

        def step_once(carry, input_data, task):
            (task_state, policy_state, params, obs_params,
             accumulated_reward, valid_mask) = carry
            org_obs = task_state.obs
            normed_obs = self.obs_normalizer.normalize_obs(org_obs, obs_params)
            task_state = task_state.replace(obs=normed_obs)
            actions, policy_state = policy_net.get_actions(
                task_state, params, policy_state)
            task_state, reward, done = task.step(task_state, actions)
            accumulated_reward = accumulated_reward + reward * valid_mask
            valid_mask = valid_mask * (1 - done.ravel())
            return ((task_state, policy_state, params, obs_params,
                     accumulated_reward, valid_mask),
                    (org_obs, valid_mask))

        def rollout(task_states, policy_states, params, obs_params,
                    step_once_fn, max_steps):
            accumulated_rewards = jnp.zeros(params.shape[0])
            valid_masks = jnp.ones(params.shape[0])
            ((task_states, policy_states, params, obs_params,
              accumulated_rewards, valid_masks),
             (obs_set, obs_mask)) = jax.lax.scan(
                step_once_fn,
                (task_states, policy_states, params, obs_params,
                 accumulated_rewards, valid_masks), (), max_steps)
            return accumulated_rewards, obs_set, obs_mask

        # Set up training functions.
        self._train_reset_fn = train_vec_task.reset
        self._train_rollout_fn = partial(
            rollout,
            step_once_fn=partial(step_once, task=train_vec_task),
            max_steps=train_vec_task.max_steps)
        if self._num_device > 1:
            self._train_rollout_fn = jax.jit(jax.pmap(
                self._train_rollout_fn, in_axes=(0, 0, 0, None)))


sim_mgr = SimManager(LinearPolicy(), ToyVecTask())  # scaffolding
key = jax.random.PRNGKey(0)  # scaffolding
pop_size = 8  # scaffolding
for it in range(3):  # scaffolding: three ES iterations of eval_params (multi-device branch)
    key, k1, k2 = jax.random.split(key, 3)  # scaffolding
    params = 0.1 * jax.random.normal(k1, (pop_size, 16))  # scaffolding
    task_state = sim_mgr._train_reset_fn(jax.random.split(k2, pop_size))  # scaffolding
    policy_state = task_state  # scaffolding
    if sim_mgr._num_device > 1:
        params = split_params_for_pmap(params)
        task_state = split_states_for_pmap(task_state)
        policy_state = split_states_for_pmap(policy_state)
    scores, all_obs, masks = sim_mgr._train_rollout_fn(
        task_state, policy_state, params, jnp.zeros(4))
print("devices:", jax.local_device_count(), "scores shape:", scores.shape)  # scaffolding
print(sorted(set(n for n in _COMPILED if "rollout" in n or "_fun" in n or "pmap" in n)))  # scaffolding
_report({"jit(rollout)", "jit(_fun)", "pmap(rollout)"}, 3)  # scaffolding
