# source: https://github.com/sadeghb/JAX-Implementation-of-DQN-and-DDQN-for-Cart-Pole/blob/1dfb0e75e2ae6e4be400bce8b969241c68a0bccd/model_playground.ipynb
# expect: jit-in-loop-or-body at line 811
# runtime: COMPILES 2 CALLS 4
# why: inside the loop over seeds the notebook redefines env_reset/env_step, builds a new partial of agent_iteration and jits, lowers and compiles it again, so agent_iteration is compiled once per seed (2 compiles for 2 seeds, 4 calls); the notebook's own comment accepts this recompilation.
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


import sys  # scaffolding
import types  # scaffolding
from typing import Any  # scaffolding
import jax as _jax  # scaffolding
import jax.numpy as _jnp  # scaffolding
from flax import struct as _struct  # scaffolding


# ---- scaffolding: minimal gymnax stand-in (gymnax is not installed): CartPole-v1 with gymnax's dynamics, auto-reset and signatures ----
@_struct.dataclass  # scaffolding
class EnvState:  # scaffolding
    x: Any  # scaffolding
    x_dot: Any  # scaffolding
    theta: Any  # scaffolding
    theta_dot: Any  # scaffolding
    time: Any  # scaffolding


@_struct.dataclass  # scaffolding
class EnvParams:  # scaffolding
    gravity: float = 9.8  # scaffolding
    masscart: float = 1.0  # scaffolding
    masspole: float = 0.1  # scaffolding
    length: float = 0.5  # scaffolding
    force_mag: float = 10.0  # scaffolding
    tau: float = 0.02  # scaffolding
    theta_threshold_radians: float = 12 * 2 * 3.141592653589793 / 360  # scaffolding
    x_threshold: float = 2.4  # scaffolding
    max_steps_in_episode: int = 500  # scaffolding


class Environment:  # scaffolding
    pass  # scaffolding


class _CartPole(Environment):  # scaffolding
    def _obs(self, s):  # scaffolding
        return _jnp.array([s.x, s.x_dot, s.theta, s.theta_dot], dtype=_jnp.float32)  # scaffolding

    def reset(self, key, params):  # scaffolding
        v = _jax.random.uniform(key, minval=-0.05, maxval=0.05, shape=(4,))  # scaffolding
        s = EnvState(x=v[0], x_dot=v[1], theta=v[2], theta_dot=v[3], time=0)  # scaffolding
        return self._obs(s), s  # scaffolding

    def step(self, key, state, action, params):  # scaffolding
        p = params  # scaffolding
        force = p.force_mag * action - p.force_mag * (1 - action)  # scaffolding
        costheta, sintheta = _jnp.cos(state.theta), _jnp.sin(state.theta)  # scaffolding
        total_mass = p.masspole + p.masscart  # scaffolding
        pml = p.masspole * p.length  # scaffolding
        temp = (force + pml * state.theta_dot ** 2 * sintheta) / total_mass  # scaffolding
        thetaacc = (p.gravity * sintheta - costheta * temp) / (p.length * (4.0 / 3.0 - p.masspole * costheta ** 2 / total_mass))  # scaffolding
        xacc = temp - pml * thetaacc * costheta / total_mass  # scaffolding
        s = EnvState(x=state.x + p.tau * state.x_dot, x_dot=state.x_dot + p.tau * xacc,  # scaffolding
                     theta=state.theta + p.tau * state.theta_dot, theta_dot=state.theta_dot + p.tau * thetaacc,  # scaffolding
                     time=state.time + 1)  # scaffolding
        done = ((s.x < -p.x_threshold) | (s.x > p.x_threshold) | (s.theta < -p.theta_threshold_radians)  # scaffolding
                | (s.theta > p.theta_threshold_radians) | (s.time >= p.max_steps_in_episode))  # scaffolding
        obs_re, s_re = self.reset(key, params)  # scaffolding: gymnax auto-resets on done
        s = _jax.tree.map(lambda a, b: _jnp.where(done, a, b), s_re, s)  # scaffolding
        obs = _jnp.where(done, obs_re, self._obs(s))  # scaffolding
        return obs, s, _jnp.float32(1.0), done, {}  # scaffolding

    def observation_space(self, params):  # scaffolding
        return types.SimpleNamespace(shape=(4,))  # scaffolding

    def action_space(self, params=None):  # scaffolding
        return types.SimpleNamespace(n=2)  # scaffolding


gymnax = types.SimpleNamespace(make=lambda name: (_CartPole(), EnvParams()))  # scaffolding
_env_mod = types.SimpleNamespace(EnvState=EnvState, Environment=Environment, EnvParams=EnvParams)  # scaffolding
sys.modules["gymnax"] = gymnax  # scaffolding
sys.modules["gymnax.environments"] = types.SimpleNamespace(environment=_env_mod)  # scaffolding
sys.modules["gymnax.environments.environment"] = _env_mod  # scaffolding


# ---- buffer.py ----
import jax 
import chex
from jax import numpy as jnp

from typing import Tuple, Any, Callable


@chex.dataclass(frozen=True)
class ReplayBufferStorage:
  states: chex.Array # dtype float32, shape [buffer_size, *state_shape]
  actions: chex.Array # dtype int32, shape [buffer_size, 1]
  rewards: chex.Array # dtype float32, shape [buffer_size, 1]
  dones: chex.Array # dtype bool, shape [buffer_size, 1]
  next_states: chex.Array # dtype float32, shape [buffer_size, *state_shape]
  cursor: chex.Array # dtype int32, shape [1] - the pointer right after the most recently added element
  full: chex.Array # dtype bool, shape [1] - boolean flag indicating whether the current buffer is full

Transition = chex.ArrayTree # - Transition is a tuple of (state, action, reward, done, next_state)


@chex.dataclass(frozen=True)
class ReplayBuffer:
  init_buffer: Callable[[Any], ReplayBufferStorage]
  """init_buffer: initializes the replay buffer returning an empty one. It may accept any args"""
  add_transition: Callable[[ReplayBufferStorage, Transition], ReplayBufferStorage]
  """add_transition: 
    adds one transition (state, action, reward, done, next_state) to the replay buffer.
    Transition should be a tuple with arrays, each of the corresponding shape expected
    by the storage without the buffer_size dimension. For example actions should be of shape
    [*action_shape]
  """
  sample_transition: Callable[[chex.PRNGKey, ReplayBufferStorage], Transition]
  """sample_transition:
    samples ONE transition from the replay buffer. the format of transition is:
    a tuple of (state, action, reward, done, next_state).
    This function accepts random key of jax to perform random sampling
  """


def init_buffer(buffer_size: int, state_shape: Tuple[int]) -> ReplayBufferStorage:
  """ initializes an empty buffer.

  Args:
    buffer_size: int
    state_shape: Tuple[int]
  Returns:
    ReplayBufferStorage
  """
  return ReplayBufferStorage(
    states=jnp.zeros((buffer_size, *state_shape), dtype=jnp.float32),
    actions=jnp.zeros((buffer_size, 1), dtype=jnp.int32),
    rewards=jnp.zeros((buffer_size, 1), dtype=jnp.float32),
    dones=jnp.zeros((buffer_size, 1), dtype=jnp.bool_),
    next_states=jnp.zeros((buffer_size, *state_shape), dtype=jnp.float32),
    cursor=jnp.array(0), # since the buffer is empty, the cursor points at zero
    full=jnp.array(False)
  )


def add_transition(buffer: ReplayBufferStorage, transition: Transition) -> ReplayBufferStorage:
  """ adds one transition to the replay buffer.

  The implementation should follow the standard circular array pattern, i.e.,
  each new transition should be written right after (wrt the 0-th dimension) 
  the most recently added one (while the initial element should be added at index 0).
  Once the maximal size is reached, the buffer should start overwriting its previous values
  starting from the oldest one.

  Args:
    buffer (ReplayBufferStorage): the buffer storage instance
    transition (Transition): a tuple of (state, action, reward, done, next_state)
      see the definition of ReplayBufferStorage and Transition for details on shapes.
      (they don't have the leading ``batch'' dimension, e.g. reward has space (1,))
  Returns: 
    ReplayBufferStorage: an updated buffer storage instance 
    (do not forget to update buffer.cursor and buffer.full !!!)
  """
  state, action, reward, done, next_state = transition
  cursor = buffer.cursor
  max_buffer_size = buffer.rewards.shape[0]

  # Copy buffer with transition added at cursor
  states = buffer.states.at[cursor].set(state)
  actions = buffer.actions.at[cursor].set(action)
  rewards = buffer.rewards.at[cursor].set(reward)
  dones = buffer.dones.at[cursor].set(done)
  next_states = buffer.next_states.at[cursor].set(next_state)

  cursor = (cursor+1) % max_buffer_size # Increment cursor
  full = jnp.logical_or(buffer.full, cursor == 0) # Update full

  # Create new buffer
  new_buffer = ReplayBufferStorage(
    states=states,
    actions=actions,
    rewards=rewards,
    dones=dones,
    next_states=next_states,
    cursor=cursor,
    full=full
  )

  return new_buffer


def sample_transition(rng: chex.PRNGKey, buffer: ReplayBufferStorage) -> Transition:
  """ randomly (with uniform distribution) samples one transition to retrieve from the replay buffer.

  Args:
    rng (chex.PRNGKey): - random generation key for jax
    buffer (ReplayBufferStorage):
  Returns:
    Transition: a tuple of (state, action, reward, done, next_state)
    You should assume that rng is a "single" key, i.e. as if it was
    returned by `jax.random.key(42)` and implement this function accordingly.
    The shapes of each element of this objects should be the same as the ones 
    expected by `add_transition`.
  """

  max_idx = jnp.where(buffer.full, buffer.rewards.shape[0], buffer.cursor)
  rng, subrng = jax.random.split(rng)
  idx = jnp.squeeze(jax.random.randint(subrng, (1,), 0, max_idx))

  sampled_states = buffer.states[idx]
  sampled_actions = buffer.actions[idx]
  sampled_rewards = buffer.rewards[idx]
  sampled_dones = buffer.dones[idx]
  sampled_next_states = buffer.next_states[idx]
  
  transition = (
    sampled_states,
    sampled_actions,
    sampled_rewards,
    sampled_dones,
    sampled_next_states,
  )
  return transition

FIFOBuffer = ReplayBuffer(
    init_buffer=jax.jit(init_buffer, static_argnums=(0, 1)),
    add_transition=jax.jit(add_transition),
    sample_transition=jax.jit(sample_transition)
)


# ---- model.py ----
import jax 
from jax import numpy as jnp
import chex
import optax
from functools import partial
from typing import Any, Callable

from flax import linen as nn
import flax
from flax.training.train_state import TrainState

# from buffer import Transition  # scaffolding: buffer.py is inlined above


class DQNTrainingArgs:
    gamma: float = 0.99 # discounting factor in MDP
    learning_rate: float = 2.5e-4 # learning rate for DQN parameter optimization
    target_update_every: int = 512 # the target network update frequency (per training steps)
    fifo_buffer_size: int = 10000 # the total size of the replay buffer
    buffer_prefill: int = 10000 # the number of transitions to prefill the replay buffer with.
    train_batch_size: int = 128 # the batch size used in training
    start_eps: float = 1.0 # epsilon (of epsilon-greedy action selection) in the beginning of the training
    end_eps: float = 0.1 # epsilon (of epsilon-greedy action selection) in the end of the training
    epsilon_decay_steps: int = 25_000 # how many steps to decay epsilon over
    sample_budget: int = 250_000 # the total number of environment transitions to train our agent over
    eval_env_steps: int = 5000 # total number of env steps to evaluate the agent over
    eval_environments: int = 10 # how many parallel environments to use in evaluation
    # say we do 1 training step per N "environment steps" (i.e. per N sampled MDP transitions); 
    # also, say train batch size in this step is M (in the number of MDP transitions).
    # train_intensity is the desired fraction M/N.
    # i.e. the ratio of "replayed" transitions to sampled transitions
    # the higher this number is, the more intense experience replay will be.
    # to keep the implementation simple, we don't allow to make this number
    # bigger that the batch size but it can be an arbitrarily small positive number
    train_intensity: float = 16.0


class DQN(nn.Module):
    n_actions: int
    state_shape: list[int]
    
    @nn.compact
    def __call__(self, state: '[t]') -> '[batch, n_actions]':
        """ This function defines the forward pass of Deep Q-Network.
    
        Args:
            state: dtype float32, shape [batch, *state_shape] a batch of states of MDP
        Returns:
            array containing Q-values for each action, its shape is [batch, n_actions]
        """
        batch = state.shape[0]

        x = state

        # First layer
        x = nn.Dense(features=64)(x)
        x = nn.relu(x)

        # Second layer
        x = nn.Dense(features=32)(x)
        x = nn.relu(x)

        # Third layer
        x = nn.Dense(features=32)(x)
        x = nn.relu(x)

        # Output layer
        x = nn.Dense(features=self.n_actions)(x)  # Output layer
        
        return x
    

DQNParameters = flax.core.frozen_dict.FrozenDict


class DQNTrainState(TrainState): 
    # `apply_fn`, `params`, and `tx` are inherited from TrainState 
    target_params: DQNParameters


@chex.dataclass(frozen=True)
class DQNAgent:
    dqn: DQN # the Deep Q-Network instance of the agent
    initialize_agent_state: Callable[[Any], DQNTrainState]
    """initialize_agent_state:
    creates the training state for our DQN agent.
    """
    select_action: Callable[[DQN, chex.PRNGKey, DQNParameters, chex.Array, chex.Array], chex.Array]
    """select_action:
    This function takes a random key of jax, a Deep Q-Network instance and its parameters
    as well as the state of MDP and the epsilon parameter and performs the action selection
    with an epsilon greedy strategy. Note that this function should be vmap-able.
    """
    compute_loss: Callable[[DQN, DQNParameters, DQNParameters, Transition, float], chex.Array]
    """compute_loss:
    This function computes the Deep Q-Network loss. It takes as an input the DQN object,
    the current parameters of the DQN agent and target parameters of the 
    DQN agent. Additionally it accepts the `Transition` object (see buffer.py for definition) and
    the gamma discounting factor. 
    """
    update_target: Callable[[DQNTrainState], DQNTrainState]
    """update_target: 
    performs the target network parameters update making the latter equal to the current parameters.
    """


def select_action(dqn: DQN, rng: chex.PRNGKey, params: DQNParameters, state: chex.Array, epsilon: chex.Array) -> chex.Array:
    """ selects an action according to the epsilon greedy strategy

    Args:
        rng (chex.PRNGKey): random number generator
        dqn (DQN): the Deep Q-Network model object
        params: (DQNParameters): the parameters of DQN
        state (chex.Array, dtype float32, shape [*state_shape]): the state to infer q-values from
        epsilon (chex.Array, dtype float32, shape ()): the epsilon parameter in the epison-greedy
            action selection strategy. Note that this argument is a scalar array of shape ()
    Returns:
        action (chex.Array, dtype int32, shape ()): selected action.
        You should assume that rng is a "single" key, i.e. as if it was
        returned by `jax.random.key(42)` and implement this function accordingly.
        
        Note: remember that the output of NN is [batch, dims]
    """
    rng, rng_random_action, rng_greedy_condition = jax.random.split(rng, 3)
    
    state = jnp.expand_dims(state, axis=0)
    q_values = dqn.apply(params, state)[0]

    greedy_action = jnp.argmax(q_values, axis=-1)
    random_action = jax.random.randint(rng_random_action, shape=(), minval=0, maxval=q_values.shape[-1])

    greedy_condition = jax.random.uniform(rng_greedy_condition) > epsilon

    return jnp.where(greedy_condition, greedy_action, random_action)


def compute_loss(dqn: DQN, params: DQNParameters, target_params: DQNParameters, transition: Transition, gamma: float) -> chex.Array:
    """ Computes the Deep Q-Network loss.

    Args:
        dqn (DQN): the Deep Q-Network model object
        params: (DQNParameters): the parameters of DQN
        target_params: (DQNParameters): the parameters of the target network of DQN
        transition (Transition): a tuple of (state, action, reward, done, next_state). 
            shapes do not have batch dimension i.e. reward has shape (1,).
            For details on shapes, see buffers.py
            This is done for simplicity of implementation.
        gamma (float): the discounting factor for our agent
    Returns:
        loss (chex.Array): a scalar loss value
    """
    state, action, reward, done, next_state = transition
    
    # Expand state, next_state, reward and done
    state = jnp.expand_dims(state, axis=0)
    next_state = jnp.expand_dims(next_state, axis=0)

    q_value = dqn.apply(params, state)[0][action[0]]
    max_target_q = jnp.max(dqn.apply(target_params, next_state)[0])

    target = reward[0] + (1.0 - done[0]) * gamma * max_target_q

    return jnp.square(q_value - target)


def update_target(state: DQNTrainState) -> DQNTrainState:
    """ performs an update of the target network parameters

    Args:
        state (DQNTrainState): the current training state of DQN
    Returns:
        new_state (DQNTrainState): updated training state where target network parameters is a copy of
        the current network parameters
    """
    new_state = state.replace(target_params=state.params)
    
    return new_state


def initialize_agent_state(dqn: DQN, rng: chex.PRNGKey, args: DQNTrainingArgs) -> DQNTrainState:
    """ Creates the training state for the DQN agent

    Args:
        dqn (DQN): The Deep Q-Network object
        rng (chex.PRNGKey): 
        args (DQNTrainingArgs): the arguments object that defines the optimization process of our agent
    Returns:
        train_state (DQNTrainState): the flax TrainingState object with an additional field 
        (target network parameters) that we defined above.
    """
    params = dqn.init(rng, jnp.ones((1, *dqn.state_shape)))

    train_state = DQNTrainState.create(
        apply_fn=dqn.apply,
        params=params,
        target_params=params,
        tx=optax.adam(args.learning_rate),
    )

    return train_state

# we use cartpole dqn so we can fix the sizes
dqn = DQN(n_actions=2, state_shape=(4,))
SimpleDQNAgent = DQNAgent(
    dqn=dqn,
    initialize_agent_state=initialize_agent_state,
    select_action=select_action,
    compute_loss=compute_loss,
    update_target=update_target,
)


def compute_loss_double_dqn(dqn: DQN, params: DQNParameters, target_params: DQNParameters, transition: Transition, gamma: float) -> chex.Array:
    """ Computes the Deep Q-Network loss.

    Args:
        dqn (DQN): the Deep Q-Network model object
        params: (DQNParameters): the parameters of DQN
        target_params: (DQNParameters): the parameters of the target network of DQN
        transition (Transition): a tuple of (state, action, reward, done, next_state). 
            shapes do not have batch dimension i.e. reward has shape (1,).
            For details on shapes, see buffers.py
            This is done for simplicity of implementation.
        gamma (float): the discounting factor for our agent
    Returns:
        loss (chex.Array): a scalar loss value
    """
    state, action, reward, done, next_state = transition
    
    # Expand state and next_state
    state = jnp.expand_dims(state, axis=0)
    next_state = jnp.expand_dims(next_state, axis=0)

    q_value = dqn.apply(params, state)[0][action[0]]
    optimal_action = jnp.argmax(dqn.apply(params, next_state)[0])
    target_q_value = dqn.apply(target_params, next_state)[0][optimal_action]

    target = reward[0] + (1.0 - done[0]) * gamma * target_q_value

    return jnp.square(q_value - target)


DoubleDQNAgent = DQNAgent(
    dqn=dqn,
    initialize_agent_state=initialize_agent_state,
    select_action=select_action,
    compute_loss=compute_loss_double_dqn,
    update_target=update_target,
)


# ---- trainer.py ----
from functools import partial
from typing import Tuple, Any, Callable

import jax 
from jax import numpy as jnp
import chex

import gymnax
from gymnax.environments.environment import EnvState, Environment, EnvParams

# from buffer import Transition, ReplayBuffer, ReplayBufferStorage, FIFOBuffer, ParallelFIFOBuffer  # scaffolding: inlined above

# from model import (  # scaffolding: model.py is inlined above
#     DQNTrainingArgs, DQNTrainState, DQN, DQNParameters, DQNAgent,
#     select_action, compute_loss, update_target, initialize_agent_state,
#     SimpleDQNAgent
# )


def agent_update_step( 
    # definitions of the training, agent, buffer, and environment
    args: DQNTrainingArgs, agent: DQNAgent, buffer: ReplayBuffer, 
    env_step: Callable,
    # states for everything: randomness, agent, buffer, environment
    rng: chex.PRNGKey, agent_state: DQNTrainState, 
    buffer_state: ReplayBufferStorage, env_state: EnvState, 
    # inputs
    last_obs: chex.Array, environment_step: chex.Array
) -> Tuple[
        chex.PRNGKey,
        DQNTrainState, 
        ReplayBufferStorage,
        EnvState,
        # last observation
        chex.Array,
        # env step
        chex.Array,
        # dqn_loss
        chex.Array,
]:
    """ This function performs one training step of the DQN agent.

    It runs a few experience collection steps (see DQNTrainingArgs class for how many),
    stores these steps into the replay buffer 
    and performs one optimization step after that.

    Args:
      args (DQNTrainingArgs): training configuration for our agent
      agent (DQNAgent): the main agent object
      buffer (ReplayBuffer): the replay buffer object (stateless)
      env_step (Callable): the function to perform one environment step, jit-able
      rng (chex.PRNGKey): the key for generating random numbers
      agent_state (DQNTrainState): the state of the agent before the update
      buffer_state (ReplayBufferStorage): the replay buffer sotrage before the update
      env_state (EnvState):
      last_obs (array, dtype float32; shape [*state_shape]): 
      environment_step (array, dtype int32; shape ()): the current number of environment steps seen
        by the agent
    Returns:
      rng (chex.PRNGKey): an updated random generator key
      agent_state (DQNTrainState): an updated state of the DQN agent
      buffer_state (ReplayBufferStorage): an updated replay buffer storage
      env_state (EnvState): an updated environment state
      last observation (array, dtype float32; shape [*state_shape]): the new last observation after the update
      env step (array, dtype int32; shape ()): the new number of environment steps seen
      dqn_loss (array, dtype float32; shape ()): the loss value at training step
    """
    env_steps_per_train_step = int(args.train_batch_size // args.train_intensity)
    obs = last_obs
    eps_per_step_decay = (args.end_eps - args.start_eps) / args.epsilon_decay_steps
    eps = (eps_per_step_decay * environment_step) + args.start_eps
    eps = jnp.clip(eps, args.end_eps)
    for t in range(env_steps_per_train_step):
        rng, step_rng, action_rng = jax.random.split(rng, 3)
        action = agent.select_action(agent.dqn, action_rng, agent_state.params, obs, eps)
        new_obs, env_state, reward, done, info = env_step(step_rng, env_state, action)
        buffer_state = buffer.add_transition(buffer_state, (obs, action, reward, done, new_obs))
        obs = new_obs
    last_obs = obs
    rng, batch_sample_rng = jax.random.split(rng, 2)
    batch_sample_rng = jax.random.split(batch_sample_rng, args.train_batch_size)
    train_batch = jax.vmap(buffer.sample_transition, in_axes=(0, None), out_axes=0)(batch_sample_rng, buffer_state)
    def loss_fn(dqn_params: DQNParameters, dqn_target_params: DQNParameters, train_batch_: Transition):
        return jax.vmap(agent.compute_loss, in_axes=(None, None, None, 0, None), out_axes=0)(
            agent.dqn, dqn_params, dqn_target_params, train_batch_, args.gamma
        ).mean()
    # argnums=0 means we want grad wrt the first argument (dqn_params)
    dqn_loss, dqn_grad = jax.value_and_grad(loss_fn, argnums=0)(
        agent_state.params, agent_state.target_params, train_batch
    )
    agent_state = agent_state.apply_gradients(grads=dqn_grad)
    return (
        # states of everything
        rng, agent_state, buffer_state, env_state, last_obs,
        environment_step + env_steps_per_train_step,
        # output values
        dqn_loss
    )


def eval_agent(
    args: DQNTrainingArgs, agent: DQNAgent, buffer: ReplayBuffer, 
    env_reset: Callable, env_step: Callable,
    rng: chex.PRNGKey, agent_state: DQNTrainState, 
) -> Tuple[chex.PRNGKey, chex.Array]:
    """ Performs agent evaluation in the environment, following greedy strategy

    These environment steps are not added to the replay buffer,
    so they don't count towards the agent steps

    Args:
      args (DQNTrainingArgs): training configuration for our agent
      agent (DQNAgent): the main agent object
      buffer (ReplayBuffer): the replay buffer object (stateless)
      env_reset (Callable): the function to perform reset of environment, jit-able
      env_step (Callable): the function to perform one environment step, jit-able
      rng (chex.PRNGKey): the key for generating random numbers
      agent_state (DQNTrainState): the state of the agent before the update
    Returns:
      rng (chex.PRNGKey): an updated random generator key
      eval_return (array, dtype float32; shape ()): average return in evaluation
    """
    rng, reset_rng = jax.random.split(rng, 2)
    reset_rng = jax.random.split(reset_rng, args.eval_environments)
    obs, env_state = jax.vmap(env_reset)(reset_rng)
    returns = jnp.zeros(args.eval_environments, dtype=jnp.float32)
    episodes = jnp.zeros(args.eval_environments, dtype=jnp.float32)
    last_episode_return = jnp.zeros(args.eval_environments, dtype=jnp.float32)
    def one_step(scan_state, t):
        rng, obs, env_state, episodes, returns, last_episode_return = scan_state
        rng, step_rng, action_rng = jax.random.split(rng, 3)
        action_rng = jax.random.split(action_rng, args.eval_environments)
        step_rng = jax.random.split(step_rng, args.eval_environments)
        # if we set epsilon to zero, eval becomes greedy, so we set the last arg to 0.0
        action = jax.vmap(agent.select_action, in_axes=(None, 0, None, 0, None))(
            agent.dqn, action_rng, agent_state.params, obs, 0.0) 
        obs, env_state, reward, done, info = jax.vmap(env_step)(step_rng, env_state, action)
        # done is zero for all steps except one in each episode 
        # so if we sum all dones in the trajectory, we count episodes
        episodes += done
        # increase the current episode return counter
        last_episode_return += reward
        # in the end of each episode - add the episode return to the global return counter
        returns += last_episode_return * done
        # if episode terminates - zero the current return counter
        last_episode_return = last_episode_return * (1 - done)
        return (
            rng, obs, env_state, episodes, returns, last_episode_return
        ), t
    total_steps = args.eval_env_steps // args.eval_environments
    scan_state, _ = jax.lax.scan(
        one_step,
        (rng, obs, env_state, episodes, returns, last_episode_return),
        jnp.arange(total_steps)
    )
    rng, obs, env_state, episodes, returns, last_episode_return = scan_state
    return rng, (returns / episodes).mean()


def agent_iteration(
    # configuration
    args: DQNTrainingArgs, agent: DQNAgent, buffer: ReplayBuffer,
    env_reset: Callable, env_step: Callable,
    # states
    rng: chex.PRNGKey, agent_state: DQNTrainState, 
    buffer_state: ReplayBufferStorage, env_state: EnvState, 
    # inputs
    last_obs: chex.Array, environment_step: chex.Array
) -> Tuple[
    chex.PRNGKey,
    DQNTrainState, 
    ReplayBufferStorage,
    EnvState,
    # last observation
    chex.Array, 
    # env steps
    chex.Array, 
    # dqn losses
    chex.Array,
    # eval_return
    chex.Array,
]:
    """ Runs one full agent update:

    1. runs several iterations of experience colletion interleaved with agent training via replay
      a. the number of collected environment steps per one train step is determined by 
         `args.train_intensity`
    2. once the agent sampled the next `args.target_update_every` environment steps,
       we perform an update of the target network.
    3. also, periodically run severa evaluation episodes with greedy action selection (i.e.
       no exploration) to estimate the performance of the agent.

    
    Args:
      args (DQNTrainingArgs): training configuration for our agent
      agent (DQNAgent): the main agent object
      buffer (ReplayBuffer): the replay buffer object (stateless)
      env_reset (Callable): the function to perform reset of environment, jit-able
      env_step (Callable): the function to perform one environment step, jit-able
      rng (chex.PRNGKey): the key for generating random numbers
      agent_state (DQNTrainState): the state of the agent before the update
      buffer_state (ReplayBufferStorage): the replay buffer sotrage before the update
      env_state (EnvState):
      last_obs (array, dtype float32; shape [*state_shape]): 
      environment_step (array, dtype int32; shape ()): the current number of environment steps seen
        by the agent
    Returns:
      rng (chex.PRNGKey): an updated random generator key
      agent_state (DQNTrainState): an updated state of the DQN agent
      buffer_state (ReplayBufferStorage): an updated replay buffer storage
      env_state (EnvState): an updated environment state
      last observation (array, dtype float32; shape [*state_shape]): the new last observation after the update
      env step (array, dtype int32; shape ()): the new number of environment steps seen
      dqn_loss (array, dtype float32; shape ()): the loss value at training step
      eval_return (array, dtype float32; shape ()): average return in evaluation
    """
    def update_step(scan_state, t):
        rng, agent_state, buffer_state, env_state, last_obs, environment_step = scan_state
        rng, agent_state, buffer_state, env_state, obs, environment_step, dqn_loss = agent_update_step(
            args, agent, buffer, env_step, 
            rng, agent_state, buffer_state, env_state, last_obs, environment_step
        )
        scan_state = (rng, agent_state, buffer_state, env_state, obs, environment_step)
        return scan_state, dqn_loss
    scan_inital_state = (rng, agent_state, buffer_state, env_state, last_obs, environment_step)
    env_steps_per_train_step = int(args.train_batch_size // args.train_intensity)
    train_steps_per_target_upd = args.target_update_every // env_steps_per_train_step
    agent_update_steps = jnp.arange(train_steps_per_target_upd)
    scan_final_state, dqn_losses = jax.lax.scan(update_step, scan_inital_state, agent_update_steps)
    (rng, agent_state, buffer_state, env_state, last_obs, environment_step) = scan_final_state
    # run several evaluation episodes and compute returns
    rng, eval_returns = eval_agent(
        # configuration
        args, agent, buffer, env_reset, env_step,
        # states
        rng, agent_state
    )
    # set the target network parameters to current parameters
    agent_state = update_target(agent_state)
    return (
        rng, agent_state, buffer_state, env_state, last_obs, environment_step,
        dqn_losses, eval_returns
    )


# ---- model_playground.ipynb ----
# cell 0
import jax 
from jax import numpy as jnp
import chex
import gymnax
from gymnax.environments.environment import EnvState, Environment, EnvParams

from typing import Tuple, Any, Callable
from functools import partial

# import matplotlib.pyplot as plt  # scaffolding: not installed; plotting cells cut
import numpy as np

from tqdm import tqdm
# cell 1
# from model import (
#     DQNTrainingArgs, DQNTrainState,
#     DQN, DQNParameters, DQNAgent,
#     select_action, compute_loss, update_target,
#     initialize_agent_state,
#     compute_loss_double_dqn,
#     SimpleDQNAgent,
#     DoubleDQNAgent
# )  # scaffolding: model.py, buffer.py and trainer.py are inlined above
# from buffer import ReplayBuffer, ReplayBufferStorage, FIFOBuffer, ParallelFIFOBuffer
# from trainer import agent_iteration
# cell 2
seeds_dqn = {}
# cell 3
for SEED in tqdm(range(40, 51)):
    if SEED >= 42:  # scaffolding: 2 seeds instead of 11
        break  # scaffolding
    args = DQNTrainingArgs()
    args.sample_budget = 1024  # scaffolding: 1024 environment steps per seed (2 agent_iter calls) instead of 250_000
    args.eval_env_steps = 500  # scaffolding: instead of 5000
    args.fifo_buffer_size = 2048  # scaffolding: instead of 10000
    rng = jax.random.key(SEED)
    rng, agent_init_rng = jax.random.split(rng, 2)
    # create the agent and its optimization state
    agent_state = SimpleDQNAgent.initialize_agent_state(SimpleDQNAgent.dqn, agent_init_rng, args)
    # create the environment
    env, env_params = gymnax.make('CartPole-v1')
    def env_reset(rng: chex.PRNGKey) -> Tuple[chex.Array, EnvState]:
        return env.reset(rng, env_params)
    def env_step(rng: chex.PRNGKey, env_state: EnvState, action: chex.Array) -> Tuple[chex.Array, EnvState]:
        return env.step(rng, env_state, action, env_params)
    state_shape = env.observation_space(env_params).shape
    n_actions = env.action_space().n
    # create replay buffer storage
    buffer_state = FIFOBuffer.init_buffer(buffer_size=args.fifo_buffer_size, state_shape=state_shape)
    # reset the environment to start working with it
    rng, reset_rng = jax.random.split(rng, 2)
    obs, env_state = env_reset(reset_rng)
    environment_step = jnp.array(0, dtype=jnp.int32)

    # now we define the main function to update the agent and compile it
    agent_iter = partial(agent_iteration, args, SimpleDQNAgent, FIFOBuffer, env_reset, env_step)
    # donate_argnums=(2,) tells jax to optimize all operations with replay buffer
    # and do them in-place
    # the cost of this to that we need to recompile it every time we reinitialize the agent
    # (because some functions get recreated). we could avoid this at the cost of much 
    # more complicated implementation.
    agent_iter = jax.jit(agent_iter, donate_argnums=(2,)).lower(
        # states
        rng, agent_state, buffer_state, env_state,
        # inputs
        obs, environment_step
    ).compile()
    losses = []
    steps = []
    returns = []
    while environment_step < args.sample_budget:
        rng, agent_state, buffer_state, env_state, obs, environment_step, dqn_losses, eval_returns = agent_iter(
            # configuration and randomness
            # args, SimpleDQNAgent, FIFOBuffer, env_step,
            # states
            rng, agent_state, buffer_state, env_state,
            # inputs
            obs, environment_step
        )
        # print(environment_step)
        steps.append(environment_step)
        returns.append(eval_returns)
        losses.append(dqn_losses)
        # return returns, losses
    seeds_dqn[SEED] = (steps, returns)

_report({"jit(agent_iteration)"}, 2 * 2)  # scaffolding: 2 seeds x 2 agent_iter calls
