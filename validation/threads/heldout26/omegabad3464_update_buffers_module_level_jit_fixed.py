# source: https://github.com/hr0nix/omega/commit/bad346416eacc6e63912a7f9ce5dbac7203ea4a2
# expect: none
# runtime: COMPILES 1 CALLS 12
# why: after the commit _update_buffers is a module-level jit with no static self and the bounds assert runs outside it, so 12 calls over 3 days' TrajectoryBatch objects compile once.
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


import abc
import jax.numpy as jnp
import flax
import jax.ops

jax.ops.index = jnp.index_exp  # scaffolding: jax.ops.index / index_update were removed from jax; the 2021 code uses them
jax.ops.index_update = lambda x, idx, y: x.at[idx].set(y)  # scaffolding


@jax.jit
def _update_buffers(
        transition_index, observation, action, reward, done, metadata,
        action_buffer, rewards_buffer, done_buffer, observation_buffers, metadata_buffers):

    def _add_transition_batch(buffer, idx, value):
        value = jnp.asarray(value, dtype=buffer.dtype)
        assert len(value.shape) == len(buffer.shape) - 1
        assert value.shape[0] == buffer.shape[0]
        assert value.shape[1:] == buffer.shape[2:], 'Provided value has an unexpected shape'

        return jax.ops.index_update(x=buffer, idx=jax.ops.index[:, idx, ...], y=value)

    def _add_transition_batch_from_tensor_bag(buffers, idx, tensor_bag):
        assert set(buffers.keys()) == set(tensor_bag.keys()), 'An unexpected set of keys has been provided'

        return {
            key: _add_transition_batch(buffer, idx, tensor_bag[key])
            for key, buffer in buffers.items()
        }

    return (
        _add_transition_batch(action_buffer, transition_index, action),
        _add_transition_batch(rewards_buffer, transition_index, reward),
        _add_transition_batch(done_buffer, transition_index, done),
        _add_transition_batch_from_tensor_bag(observation_buffers, transition_index, observation),
        _add_transition_batch_from_tensor_bag(metadata_buffers, transition_index, metadata),
    )


class TrajectoryBatch(object):
    def __init__(self, num_trajectories, num_transitions):
        self._num_trajectories = num_trajectories
        self._num_transitions = num_transitions

        self._actions = self._create_buffer(num_trajectories, num_transitions, element_shape=(), dtype=jnp.int32)
        self._rewards = self._create_buffer(num_trajectories, num_transitions, element_shape=(), dtype=jnp.float32)
        self._done = self._create_buffer(num_trajectories, num_transitions, element_shape=(), dtype=jnp.bool_)

        self._observation_buffers = None
        self._metadata_buffers = None

    @property
    def num_trajectories(self):
        return self._num_trajectories

    @property
    def num_transitions(self):
        return self._num_transitions

    def _create_buffer(self, num_trajectories, num_transitions, element_shape, dtype):
        return jnp.zeros(shape=(num_trajectories, num_transitions) + element_shape, dtype=dtype)

    def _create_buffers_for_tensor_bag(self, tensor_bag):
        return {
            key: self._create_buffer(self._num_trajectories, self._num_transitions, value.shape[1:], value.dtype)
            for key, value in tensor_bag.items()
        }

    def add_transition_batch(self, transition_index, observation, action, reward, done, metadata):
        assert 0 <= transition_index < self.num_transitions, 'Provided transition index is out of bounds'

        if self._observation_buffers is None:
            self._observation_buffers = self._create_buffers_for_tensor_bag(observation)
        if self._metadata_buffers is None:
            self._metadata_buffers = self._create_buffers_for_tensor_bag(metadata)

        (
            self._actions, self._rewards, self._done,
            self._observation_buffers, self._metadata_buffers,
        ) = _update_buffers(
            transition_index, observation, action, reward, done, metadata,
            self._actions, self._rewards, self._done,
            self._observation_buffers, self._metadata_buffers,
        )

    def to_dict(self):
        return flax.core.frozen_dict.FrozenDict({
            'actions': self._actions,
            'rewards': self._rewards,
            'done': self._done,
            'observations': self._observation_buffers,
            'metadata': self._metadata_buffers,
        })



class EvaluationStats:  # scaffolding: stand-in for omega.evaluation.EvaluationStats
    def __init__(self):  # scaffolding
        self.total = {}  # scaffolding

    def add_stats(self, run_index, reward):  # scaffolding
        self.total[run_index] = self.total.get(run_index, 0.0) + reward  # scaffolding


class EnvWrapper:  # scaffolding: stand-in for omega.training.env_wrapper.EnvWrapper around a NetHack env
    def __init__(self, env):  # scaffolding
        self._env = env  # scaffolding
        self.current_state = None  # scaffolding

    def reset(self):  # scaffolding
        self.current_state = {'glyphs': jnp.zeros((3, 4), dtype=jnp.int16)}  # scaffolding
        return self.current_state  # scaffolding

    def step(self, action):  # scaffolding
        self._env['t'] += 1  # scaffolding
        self.current_state = {'glyphs': jnp.full((3, 4), self._env['t'] % 7, dtype=jnp.int16)}  # scaffolding
        return self.current_state, 1.0, self._env['t'] % 5 == 0, {}  # scaffolding


class Trainer(abc.ABC):
    def __init__(self, env_factory, num_parallel_envs, num_collection_steps):
        self._env_factory = env_factory
        self._num_collection_steps = num_collection_steps

        self._init_training_envs(num_parallel_envs)

    def _init_training_envs(self, num_parallel_envs):
        self._training_envs = [
            EnvWrapper(self._env_factory())
            for _ in range(num_parallel_envs)
        ]
        for env in self._training_envs:
            env.reset()
        self._env_run_indices = list(range(len(self._training_envs)))
        self._next_env_run_index = len(self._training_envs)

    @property
    def num_collection_steps(self):
        return self._num_collection_steps

    def run_training_step(self, agent, stats=None):
        trajectory_batch, stats = self._run_day(agent, stats)
        self._run_night(agent, trajectory_batch)
        return stats

    def _run_day(self, agent, stats=None):
        stats = stats or EvaluationStats()
        trajectory_batch = TrajectoryBatch(
            num_trajectories=len(self._training_envs), num_transitions=self.num_collection_steps)

        for step in range(self.num_collection_steps):
            observation_batch = self._batch_tensors([env.current_state for env in self._training_envs])
            action_batch, metadata_batch = agent.act(observation_batch)
            rewards, dones = [], []

            for env_index in range(len(self._training_envs)):
                obs_after, reward, done, info = self._training_envs[env_index].step(action_batch[env_index])
                rewards.append(reward)
                dones.append(done)

                stats.add_stats(self._env_run_indices[env_index], reward)

                if done:
                    # Start a new trajectory
                    self._training_envs[env_index].reset()

                    # Allocate a new run index for stats accumulation
                    self._env_run_indices[env_index] = self._next_env_run_index + 1
                    self._next_env_run_index += 1

            trajectory_batch.add_transition_batch(
                transition_index=step,
                observation=observation_batch,
                action=action_batch,
                reward=rewards,
                done=dones,
                metadata=metadata_batch,
            )

        return trajectory_batch, stats

    @abc.abstractmethod
    def _run_night(self, agent, collected_trajectories):
        pass

    @staticmethod
    def _batch_tensors(tensor_dicts):
        assert len(tensor_dicts) > 0
        tensor_keys = tensor_dicts[0].keys()
        assert all(td.keys() == tensor_keys for td in tensor_dicts)
        assert all(
            td[key].shape == tensor_dicts[0][key].shape
            for key in tensor_keys
            for td in tensor_dicts
        )

        return {
            key: jnp.stack([td[key] for td in tensor_dicts], axis=0)
            for key in tensor_keys
        }


class OnPolicyTrainer(Trainer):
    def _run_night(self, agent, collected_trajectories):
        agent.train_on_batch(collected_trajectories)


class _Agent:  # scaffolding: stand-in agent (the real one is NethackTransformerAgent)
    def act(self, observation_batch):  # scaffolding
        n = observation_batch['glyphs'].shape[0]  # scaffolding
        return jnp.zeros((n,), dtype=jnp.int32), {'log_action_probs': jnp.zeros((n, 8))}  # scaffolding

    def train_on_batch(self, trajectory_batch):  # scaffolding
        self.last = trajectory_batch.to_dict()  # scaffolding


trainer = OnPolicyTrainer(env_factory=lambda: {'t': 0}, num_parallel_envs=2, num_collection_steps=4)  # scaffolding
agent = _Agent()  # scaffolding
for _ in range(3):  # scaffolding: three training iterations (day + night)
    trainer.run_training_step(agent)  # scaffolding
_report({"jit(_update_buffers)"}, 12)  # scaffolding
