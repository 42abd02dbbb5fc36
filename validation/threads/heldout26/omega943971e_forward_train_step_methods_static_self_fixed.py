# source: https://github.com/hr0nix/omega/commit/943971e3b96eeef4cb87ea4b53870ee67d13f552
# expect: none
# runtime: COMPILES 2 CALLS 15
# why: after the commit _forward_step and _train_step are methods jitted once with self static (config read from self), so the 15 calls compile each function once.
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
import types  # scaffolding: SimpleNamespace stand-ins for modules that are not installed or were cut
from functools import partial
from typing import Optional

from absl import logging

import attr
import numpy as np
import flax.training.train_state
import flax.training.checkpoints
import flax.linen as nn
import jax.numpy as jnp
import jax.random
import optax

nle = types.SimpleNamespace(nethack=types.SimpleNamespace(DUNGEON_SHAPE=(3, 4), MAX_GLYPH=15))  # scaffolding: nle is not installed; a 3x4 map instead of 21x79
gym = types.SimpleNamespace(Env=object)  # scaffolding: gym is not installed


class rlax:  # scaffolding: rlax is not installed; td_learning and policy_gradient_loss as rlax defines them
    @staticmethod
    def td_learning(v_tm1, r_t, discount_t, v_t):  # scaffolding
        return jax.lax.stop_gradient(r_t + discount_t * v_t) - v_tm1  # scaffolding

    @staticmethod
    def policy_gradient_loss(logits_t, a_t, adv_t, w_t):  # scaffolding
        log_pi_a_t = jnp.take_along_axis(jax.nn.log_softmax(logits_t), a_t[:, None], axis=-1)[:, 0]  # scaffolding
        return -jnp.mean(log_pi_a_t * jax.lax.stop_gradient(adv_t) * w_t)  # scaffolding


class TransformerNet(nn.Module):  # scaffolding: stand-in for omega.neural.TransformerNet (one residual dense block)
    num_blocks: int  # scaffolding
    dim: int  # scaffolding
    fc_inner_dim: int  # scaffolding
    num_heads: int  # scaffolding
    dropout_rate: float  # scaffolding
    deterministic: Optional[bool] = None  # scaffolding

    @nn.compact  # scaffolding
    def __call__(self, x, deterministic=None, rng=None):  # scaffolding
        return x + nn.Dense(self.dim)(x)  # scaffolding


class CrossTransformerNet(nn.Module):  # scaffolding: stand-in for omega.neural.CrossTransformerNet (mean-pooled cross term)
    num_blocks: int  # scaffolding
    dim: int  # scaffolding
    fc_inner_dim: int  # scaffolding
    num_heads: int  # scaffolding
    dropout_rate: float  # scaffolding
    deterministic: Optional[bool] = None  # scaffolding

    @nn.compact  # scaffolding
    def __call__(self, x, y, deterministic=None, rng=None):  # scaffolding
        return x + nn.Dense(self.dim)(jnp.mean(y, axis=1, keepdims=True))  # scaffolding


class DenseNet(nn.Module):  # scaffolding: stand-in for omega.neural.DenseNet
    num_blocks: int  # scaffolding
    dim: int  # scaffolding
    output_dim: int  # scaffolding

    @nn.compact  # scaffolding
    def __call__(self, x):  # scaffolding
        return nn.Dense(self.output_dim)(nn.relu(nn.Dense(self.dim)(x)))  # scaffolding


class Agent(abc.ABC):
    def __init__(self, observation_space, action_space):
        self._observation_space = observation_space
        self._action_space = action_space

    @property
    def observation_space(self):
        return self._observation_space

    @property
    def action_space(self):
        return self._action_space

    @abc.abstractmethod
    def act(self, observation_batch):
        pass


class TrainableAgentBase(Agent):
    @abc.abstractmethod
    def train_on_batch(self, trajectory_batch):
        pass

    @abc.abstractmethod
    def try_load_from_checkpoint(self, path):
        pass

    @abc.abstractmethod
    def save_to_checkpoint(self, path, day):
        pass


class NethackPerceiverModel(nn.Module):
    num_actions: int
    glyph_embedding_dim: int = 16  # scaffolding: 64 in the repo, smaller for CPU
    num_memory_units: int = 4  # scaffolding: 128 in the repo
    memory_dim: int = 16  # scaffolding: 64 in the repo
    num_perceiver_blocks: int = 2
    num_perceiver_self_attention_subblocks: int = 2
    transformer_dropout: float = 0.1
    memory_update_num_heads: int = 8
    map_attention_num_heads: int = 2
    transformer_fc_inner_dim: int = 256
    num_policy_network_blocks: int = 4
    num_value_network_blocks: int = 4
    deterministic: Optional[bool] = None

    def setup(self):
        self._glyph_pos_embedding = nn.Embed(
            num_embeddings=nle.nethack.DUNGEON_SHAPE[0] * nle.nethack.DUNGEON_SHAPE[1],
            features=self.glyph_embedding_dim
        )
        self._glyph_embedding = nn.Embed(
            num_embeddings=nle.nethack.MAX_GLYPH + 1,
            features=self.glyph_embedding_dim
        )
        self._memory_embedding = nn.Embed(
            num_embeddings=self.num_memory_units,
            features=self.memory_dim
        )
        self._memory_update_blocks = [
            TransformerNet(
                num_blocks=self.num_perceiver_self_attention_subblocks,
                dim=self.memory_dim,
                fc_inner_dim=self.transformer_fc_inner_dim,
                num_heads=self.memory_update_num_heads,
                dropout_rate=self.transformer_dropout,
                deterministic=self.deterministic,
                name='{}/perceiver_self_attention_block_{}'.format(self.name, block_idx)
            )
            for block_idx in range(self.num_perceiver_blocks)
        ]
        self._map_attention_blocks = [
            CrossTransformerNet(
                num_blocks=1,
                dim=self.memory_dim,
                fc_inner_dim=self.transformer_fc_inner_dim,
                num_heads=self.map_attention_num_heads,
                dropout_rate=self.transformer_dropout,
                deterministic=self.deterministic,
                name='{}/perceiver_map_attention_block_{}'.format(self.name, block_idx),
            )
            for block_idx in range(self.num_perceiver_blocks)
        ]
        self._policy_network = DenseNet(
            num_blocks=self.num_policy_network_blocks, dim=self.memory_dim, output_dim=self.num_actions,
        )
        self._value_network = DenseNet(
            num_blocks=self.num_value_network_blocks, dim=self.memory_dim, output_dim=1,
        )

    def __call__(self, observations_batch, deterministic=None, rng=None):
        deterministic = nn.module.merge_param('deterministic', self.deterministic, deterministic)
        if rng is None:
            rng = self.make_rng('nethack_transformer_model')

        glyphs = observations_batch['glyphs']
        batch_size = glyphs.shape[0]

        memory_indices = jnp.arange(0, self.num_memory_units, dtype=jnp.int32)
        memory = self._memory_embedding(memory_indices)  # TODO: add memory recurrence
        memory = jnp.tile(memory, reps=[batch_size, 1, 1])

        glyphs = jnp.reshape(glyphs, (glyphs.shape[0], -1))  # scaffolding: the newshape= keyword was removed from jax; positional as before
        glyphs_embeddings = self._glyph_embedding(glyphs)

        glyph_pos_indices = jnp.arange(
            0, nle.nethack.DUNGEON_SHAPE[0] * nle.nethack.DUNGEON_SHAPE[1], dtype=jnp.int32)
        glyph_pos_embeddings = self._glyph_pos_embedding(glyph_pos_indices)
        glyphs_embeddings += glyph_pos_embeddings

        for block_idx in range(self.num_perceiver_blocks):
            rng, subkey = jax.random.split(rng)
            memory = self._map_attention_blocks[block_idx](
                memory, glyphs_embeddings, deterministic=deterministic, rng=subkey)

            rng, subkey = jax.random.split(rng)
            memory = self._memory_update_blocks[block_idx](
                memory, deterministic=deterministic, rng=subkey)

        # TODO: use pooling instead of fixed memory cell?

        action_logits = self._policy_network(memory[:, 0, :])
        action_logprobs = jax.nn.log_softmax(action_logits, axis=-1)

        state_value = self._value_network(memory[:, 1, :])
        state_value = jnp.squeeze(state_value, axis=-1)

        return action_logprobs, state_value


class NethackTransformerAgent(TrainableAgentBase):
    CONFIG = flax.core.frozen_dict.FrozenDict({
        'model_batch_size': 32,
        'value_function_loss_weight': 1.0,
        'lr': 1e-3,
    })

    class TrainState(flax.training.train_state.TrainState):
        step_index: int = None

    def __init__(self, *args, config=None, **kwargs):
        super(NethackTransformerAgent, self).__init__(*args, **kwargs)

        self._random_key = jax.random.PRNGKey(0)
        self._config = self.CONFIG.copy(config or {})
        self._model, self._train_state = self._build_model()

    # TODO: can this function be made jit-able?
    def _build_model_batch(self, trajectory_batch):
        model_batch_size = self._config['model_batch_size']

        observations_unstacked = {
            'glyphs': []
        }
        targets_unstacked = {
            'actions': [],
            'rewards': [],
            'dest_state_values': [],
        }
        target_dtypes = {
            'actions': jnp.int32,
            'rewards': jnp.float32,
            'dest_state_values': jnp.float32,
        }

        # We need this to sample short trajectories less often
        def num_available_src_states(trajectory):
            if trajectory.transitions[-1].done:
                return len(trajectory.transitions)
            else:
                # If the trajectory doesn't end in a terminal state,
                # we won't have a value estimate for the last state so we can't use the transition to it.
                return len(trajectory.transitions) - 1

        trajectory_freqs = jnp.array(
            [num_available_src_states(t) for t in trajectory_batch.trajectories],
            dtype=jnp.int32)
        trajectory_logprobs = jnp.log(trajectory_freqs / jnp.sum(trajectory_freqs, dtype=jnp.float32))

        for example_index in range(model_batch_size):
            trajectory_index = jax.random.categorical(self._next_random_key(), trajectory_logprobs)
            trajectory = trajectory_batch.trajectories[trajectory_index]

            transition_index = jax.random.randint(
                self._next_random_key(), shape=(), minval=0, maxval=trajectory_freqs[trajectory_index])

            # The src state of the transition is either an initial state or a dest state of the previous transition
            src_state = (
                trajectory.initial_state if transition_index == 0
                else trajectory.transitions[transition_index - 1].observation
            )
            observations_unstacked['glyphs'].append(src_state['glyphs'])

            targets_unstacked['actions'].append(trajectory.transitions[transition_index].action)
            targets_unstacked['rewards'].append(trajectory.transitions[transition_index].reward)

            if transition_index < len(trajectory.transitions) - 1:
                # We have a value computed for the next state
                dest_state_value = trajectory.transitions[transition_index + 1].metadata['state_values']
            else:
                assert trajectory.transitions[transition_index].done  # We can only do it for the terminal state
                dest_state_value = 0.0  # We can't get any reward from a terminal state
            targets_unstacked['dest_state_values'].append(dest_state_value)

        observations = {
            key: jnp.stack(values, axis=0)
            for key, values in observations_unstacked.items()
        }
        targets = {
            key: jnp.array(values, dtype=target_dtypes[key])
            for key, values in targets_unstacked.items()
        }

        return observations, targets

    def _next_random_key(self):
        self._random_key, subkey = jax.random.split(self._random_key)
        return subkey

    def _build_model(self):
        observations_batch = {
            'glyphs': jnp.zeros(
                shape=(1, nle.nethack.DUNGEON_SHAPE[0], nle.nethack.DUNGEON_SHAPE[1]),
                dtype=jnp.int32
            )
        }
        return self._build_model_for_batch(observations_batch)

    def _build_model_for_batch(self, observations_batch):
        model = NethackPerceiverModel(num_actions=self.action_space.n)
        model_params = model.init(
            self._next_random_key(), observations_batch, deterministic=False, rng=self._next_random_key())

        optimizer = optax.adam(learning_rate=self._config['lr'])

        train_state = self.TrainState.create(apply_fn=model.apply, params=model_params, tx=optimizer)

        return model, train_state

    def try_load_from_checkpoint(self, path):
        """
        Loads a checkpoint from the given path if there are any.

        :param path: The path to checkpoints.
        :return: The index of the step that should be next.
        """
        checkpoint_path = flax.training.checkpoints.latest_checkpoint(path)
        if checkpoint_path is None:
            logging.warning('No checkpoints available at {}'.format(path))
            return 0
        else:
            logging.info('State will be loaded from checkpoint {}'.format(checkpoint_path))
            self._train_state = flax.training.checkpoints.restore_checkpoint(checkpoint_path, self._train_state)
            return self._train_state.step_index + 1

    def save_to_checkpoint(self, path, step):
        self._train_state = self._train_state.replace(step_index=step)
        flax.training.checkpoints.save_checkpoint(
            path, self._train_state, step=step, keep=1, overwrite=True)

    @partial(jax.jit, static_argnums=(0,))
    def _forward_step(self, train_state, observation_batch, rng):
        rng1, rng2 = jax.random.split(rng)
        log_action_probs, state_values = train_state.apply_fn(
            train_state.params, observation_batch, deterministic=True, rng=rng1)
        metadata = {
            'log_action_probs': log_action_probs,
            'state_values': state_values,
        }
        # TODO: we need some form of exploration or policy entropy regularization
        selected_actions = jax.random.categorical(rng2, log_action_probs)
        return selected_actions, metadata

    @partial(jax.jit, static_argnums=(0,))
    def _train_step(self, train_state, observations_batch, targets_batch, rng):
        def loss_function(params, rng):
            # TODO(hr0nix): it should come from trajectory in targets_batch, but how would you do backprop?
            log_action_probs, state_values = train_state.apply_fn(
                params, observations_batch, deterministic=False, rng=rng)
            ones = jnp.ones(shape=state_values.shape)
            batch_td_learning = jax.vmap(rlax.td_learning, in_axes=0)
            td_error = batch_td_learning(
                state_values, targets_batch['rewards'], ones, targets_batch['dest_state_values'])
            policy_gradient_loss = rlax.policy_gradient_loss(
                log_action_probs, targets_batch['actions'], td_error, ones)
            value_function_loss = self._config['value_function_loss_weight'] * jnp.mean(td_error ** 2)
            return policy_gradient_loss + value_function_loss

        loss_function_grad = jax.grad(loss_function)
        grads = loss_function_grad(train_state.params, rng=rng)
        return train_state.apply_gradients(grads=grads)

    def act(self, observation_batch):
        return self._forward_step(self._train_state, observation_batch, self._next_random_key())

    def train_on_batch(self, trajectory_batch):
        # TODO: replace pair sampling by recurrence
        observations_batch, targets_batch = self._build_model_batch(trajectory_batch)
        self._train_state = self._train_step(
            self._train_state, observations_batch, targets_batch, self._next_random_key())


@attr.s
class Transition(object):
    """
    The observation of a state we're currently in.
    """
    observation = attr.ib()
    """
    The action that took us here.
    """
    action = attr.ib()
    """
    The reward for getting in this state. 
    """
    reward = attr.ib(type=float)
    """
    Whether this is a terminal state.
    """
    done = attr.ib(type=bool)
    """
    Metadata associated with the transition to this state (action log probs, state values etc.)
    """
    metadata = attr.ib(type=dict)


class Trajectory(object):
    def __init__(self, initial_state):
        self._initial_state = initial_state
        self._transitions = []

    @property
    def initial_state(self):
        return self._initial_state

    @property
    def transitions(self):
        return self._transitions

    def add_transition(self, action, observation, reward, done, metadata):
        self._transitions.append(
            Transition(
                action=action, observation=observation, reward=reward, done=done, metadata=metadata
            )
        )


class TrajectoryBatch(object):
    def __init__(self, trajectories=None):
        self._trajectories = trajectories or []

    @property
    def trajectories(self):
        return self._trajectories

    def add_trajectory(self, initial_state):
        trajectory = Trajectory(initial_state)
        self._trajectories.append(trajectory)
        return trajectory

    def sample_subbatch(self, batch_size):
        return TrajectoryBatch(np.random.choice(self._trajectories, size=batch_size).tolist())



class EnvWrapper(gym.Env):
    def __init__(self, env):
        self._env = env

        self._current_state = None
        self._last_reward = None
        self._last_action = None
        self._is_done = None

    @property
    def current_state(self):
        return self._current_state

    @property
    def last_reward(self):
        return self._last_reward

    @property
    def last_action(self):
        return self._last_action

    @property
    def is_done(self):
        return self._is_done

    @property
    def is_running(self):
        return self._current_state is not None

    def reset(self):
        self._current_state = self._env.reset()
        self._is_done = False
        return self._current_state

    def step(self, action):
        assert self.is_running
        assert not self.is_done

        observation, reward, done, info = self._env.step(action)
        self._current_state = observation
        self._last_reward = reward
        self._last_action = action
        self._is_done = done
        return observation, reward, done, info

    def render(self, mode='human'):
        return self._env.render(mode)

    def close(self):
        self._env.close()

    def seed(self, seed=None):
        return self._env.seed(seed)

class EvaluationStats:  # scaffolding: stand-in for omega.evaluation.EvaluationStats
    def __init__(self):  # scaffolding
        self.total = {}  # scaffolding

    def add_stats(self, run_index, reward):  # scaffolding
        self.total[run_index] = self.total.get(run_index, 0.0) + reward  # scaffolding


class Trainer(abc.ABC):
    def __init__(self, env_factory, num_parallel_envs, num_day_steps, num_night_steps):
        self._env_factory = env_factory
        self._num_day_steps = num_day_steps
        self._num_night_steps = num_night_steps

        self._init_training_envs(num_parallel_envs)

    def _init_training_envs(self, num_parallel_envs):
        self._training_envs = [
            EnvWrapper(self._env_factory())
            for _ in range(num_parallel_envs)
        ]
        for env in self._training_envs:
            env.reset()
        self._env_run_indices = [i for i in range(len(self._training_envs))]
        self._next_env_run_index = len(self._training_envs)

    @property
    def num_day_steps(self):
        return self._num_day_steps

    @property
    def num_night_steps(self):
        return self._num_night_steps

    def run_training_step(self, agent, stats=None):
        trajectory_batch, stats = self._run_day(agent, stats)
        self._run_night(agent, trajectory_batch)
        return stats

    def _run_day(self, agent, stats=None):
        stats = stats or EvaluationStats()

        # Gather a new batch of trajectories every day
        trajectory_batch = TrajectoryBatch()
        trajectories = [
            trajectory_batch.add_trajectory(env.current_state)
            for env in self._training_envs
        ]

        for step in range(self.num_day_steps):
            observation_batch = self._batch_tensors([env.current_state for env in self._training_envs])
            action_batch, metadata_batch = agent.act(observation_batch)

            def metadata_subbatch(env_index):
                return {
                    key: value[env_index]
                    for key, value in metadata_batch.items()
                }

            for env_index in range(len(self._training_envs)):
                obs, reward, done, info = self._training_envs[env_index].step(action_batch[env_index])
                trajectories[env_index].add_transition(
                    action_batch[env_index], obs, reward, done, metadata_subbatch(env_index))
                stats.add_stats(self._env_run_indices[env_index], reward)
                if done:
                    # Start a new trajectory
                    trajectories[env_index] = trajectory_batch.add_trajectory(
                        self._training_envs[env_index].reset())
                    # Allocate a new run index for stats accumulation
                    self._env_run_indices[env_index] = self._next_env_run_index + 1
                    self._next_env_run_index += 1

        return trajectory_batch, stats

    @abc.abstractmethod
    def _run_night(self, agent, daytime_trajectories):
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
    def __init__(self, batch_size, **kwargs):
        super(OnPolicyTrainer, self).__init__(**kwargs)
        self._batch_size = batch_size

    def _run_night(self, agent, daytime_trajectories):
        for _ in range(self.num_night_steps):
            batch = daytime_trajectories.sample_subbatch(self._batch_size)
            agent.train_on_batch(batch)


class _NethackEnv:  # scaffolding: stand-in for the NLE env (glyph observations, never done)
    def __init__(self):  # scaffolding
        self.t = 0  # scaffolding

    def reset(self):  # scaffolding
        self.t = 0  # scaffolding
        return {'glyphs': jnp.zeros(nle.nethack.DUNGEON_SHAPE, dtype=jnp.int32)}  # scaffolding

    def step(self, action):  # scaffolding
        self.t += 1  # scaffolding
        return {'glyphs': jnp.full(nle.nethack.DUNGEON_SHAPE, self.t % 15, dtype=jnp.int32)}, 1.0, False, {}  # scaffolding


agent = NethackTransformerAgent(observation_space=None, action_space=types.SimpleNamespace(n=8), config={'model_batch_size': 4})  # scaffolding
trainer = OnPolicyTrainer(batch_size=2, env_factory=_NethackEnv, num_parallel_envs=2, num_day_steps=4, num_night_steps=1)  # scaffolding
_COMPILED.clear()  # scaffolding: count only the training iterations
for _ in range(3):  # scaffolding: three training iterations (day: 4 act calls, night: 1 train_on_batch)
    trainer.run_training_step(agent)  # scaffolding
_report({"jit(_forward_step)", "jit(_train_step)"}, 15)  # scaffolding
