# source: https://github.com/google-deepmind/educational/blob/04e4e644ea46ab50cca33406ac803d206d547391/colabs/summer_schools/intro_to_reinforcement_learning.ipynb
# expect: stale-closure at line 257; shape-churn at line 323
# runtime: COMPILES 2 CALLS 720
# why: actor_step is wrapped in jax.jit but decides exploration with `if np.random.random() > self._epsilon`, a Python draw that runs only while tracing (2 draws for 720 calls), so epsilon-greedy exploration is frozen into the compiled code; and the first TimeStep of each episode has reward=None and discount=None, a different pytree, so actor_step compiles twice.

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


# --- end harness ---
# colabs/summer_schools/intro_to_reinforcement_learning.ipynb of google-deepmind/educational (code cells used, in order; markdown and the earlier random/tabular agents dropped)
# ---- cell 4
#@title Imports.

import collections
import random
from typing import Sequence

import chex
import haiku as hk
import jax
import jax.numpy as jnp
import numpy as np
import optax

# scaffolding: matplotlib (animation, rc, plt) is not installed here; the plotting cells are cut
# --- scaffolding: a minimal stand-in for dm_env (not installed here), same TimeStep/StepType/specs API ---
import enum  # scaffolding
from typing import Any, NamedTuple  # scaffolding


class _dm_env:  # scaffolding
    class StepType(enum.IntEnum):  # scaffolding
        FIRST = 0  # scaffolding
        MID = 1  # scaffolding
        LAST = 2  # scaffolding

    class TimeStep(NamedTuple):  # scaffolding
        step_type: Any  # scaffolding
        reward: Any  # scaffolding
        discount: Any  # scaffolding
        observation: Any  # scaffolding

        def last(self):  # scaffolding
            return self.step_type == _dm_env.StepType.LAST  # scaffolding

    class Environment:  # scaffolding
        pass  # scaffolding

    @staticmethod  # scaffolding
    def restart(observation):  # scaffolding
        return _dm_env.TimeStep(_dm_env.StepType.FIRST, None, None, observation)  # scaffolding

    @staticmethod  # scaffolding
    def transition(reward, observation, discount=1.0):  # scaffolding
        return _dm_env.TimeStep(_dm_env.StepType.MID, reward, discount, observation)  # scaffolding

    @staticmethod  # scaffolding
    def termination(reward, observation):  # scaffolding
        return _dm_env.TimeStep(_dm_env.StepType.LAST, reward, 0.0, observation)  # scaffolding


dm_env = _dm_env  # scaffolding


class specs:  # scaffolding
    class BoundedArray:  # scaffolding
        def __init__(self, shape, dtype, name, minimum, maximum):  # scaffolding
            self.shape, self.dtype = shape, dtype  # scaffolding

        def generate_value(self):  # scaffolding
            return np.zeros(self.shape, self.dtype)  # scaffolding

    class DiscreteArray:  # scaffolding
        def __init__(self, dtype, num_values, name):  # scaffolding
            self.num_values = num_values  # scaffolding
# --- end scaffolding ---
# ---- cell 6
#@title Defining the Catch Environment

_ACTIONS = (-1, 0, 1)  # Move paddle left, no-op, move paddle right.

class Catch(dm_env.Environment):
  """A Catch environment built on the dm_env.Environment class.

  The agent must move a paddle to intercept falling balls. Falling balls only
  move downwards on the column they are in.

  The observation is an array with shape (rows, columns) containing binary
  values: 0 if a space is empty; 1 if it contains the paddle or a ball.

  The actions are discrete, and by default there are three available actions:
  move left, stay, and move right.

  The episode terminates when the ball reaches the bottom of the screen.
  """

  def __init__(self,
               rows: int = 10,
               columns: int = 5,
               discount: float = 1.0):
    """Initializes a new Catch environment.

    Args:
      rows: number of rows.
      columns: number of columns.
      discount: discount factor for calculating reward.
    """
    self._rows = rows
    self._columns = columns
    self._discount = discount
    self._board = np.zeros((rows, columns), dtype=np.float32)
    self._ball_x = None
    self._ball_y = None
    self._paddle_x = None
    self._reset_next_step = True

  def reset(self) -> dm_env.TimeStep:
    """Returns the first `TimeStep` of a new episode."""
    self._reset_next_step = False
    # Ball can drop from any column.
    self._ball_x = np.random.randint(self._columns)
    self._ball_y = 0  # Top of matrix.
    self._paddle_x = self._columns // 2  # Centre.

    return dm_env.restart(self._observation())

  def step(self, action: int) -> dm_env.TimeStep:
    """Updates the environment according to the action."""
    if self._reset_next_step:
      return self.reset()

    # Move the paddle.
    dx = _ACTIONS[action]  # Get action. dx = change in x position.
    # Clip to keep paddle in bounds of the environment matrix.
    self._paddle_x = np.clip(self._paddle_x + dx, 0, self._columns - 1)

    # Drop the ball down one row.
    self._ball_y += 1

    # Check for termination.
    if self._ball_y == self._rows - 1:  # Ball has fallen below the rows.
      # Reward depends on whether the paddle is on the ball (positions match).
      reward = 1. if self._paddle_x == self._ball_x else -1.
      self._reset_next_step = True
      return dm_env.termination(reward=reward, observation=self._observation())

    return dm_env.transition(reward=0., observation=self._observation(),
                             discount=self._discount)

  def observation_spec(self) -> specs.BoundedArray:
    """Returns the observation spec."""
    return specs.BoundedArray(
        shape=self._board.shape,
        dtype=self._board.dtype,
        name='board',
        minimum=0,
        maximum=2)

  def action_spec(self) -> specs.DiscreteArray:
    """Returns the action spec."""
    return specs.DiscreteArray(
        dtype=int, num_values=len(_ACTIONS), name='action')

  def _observation(self) -> np.ndarray:
    self._board.fill(0.)
    self._board[self._ball_y, self._ball_x] = 2.
    self._board[self._rows - 1, self._paddle_x] = 1.

    return self._board.copy()
# ---- cell 27
Transition = collections.namedtuple(
    'Transition', 'obs_tm1 a_tm1 r_t discount_t obs_t')

# For now, this only handles batch_size=1 but you can modify the code
# to handle other batch sizes.
class TransitionAccumulator:
  """Simple Python accumulator for transitions."""

  def __init__(self):
    self._prev = None
    self._action = None
    self._latest = None

  def push(self, env_output, action):
    self._prev = self._latest
    self._action = action
    self._latest = env_output

  def sample(self, batch_size):
    assert batch_size == 1
    return Transition(self._prev.observation, self._action, self._latest.reward,
                      self._latest.discount, self._latest.observation)

  def is_ready(self, batch_size):
    """Checks if there is previous data stored."""
    assert batch_size == 1
    return self._prev is not None
# ---- cell 41
class QlearningAgent(object):
  """Q-learning agent."""

  def __init__(self,
               action_spec: specs.DiscreteArray,
               observation_spec: specs.DiscreteArray,
               num_hiddens: Sequence[int] = [50],
               epsilon: float = 0.01,
               learning_rate: float = 0.005):
    self._observation_spec = observation_spec
    self._num_actions = action_spec.num_values
    self._epsilon = epsilon
    self._optimizer = optax.adam(learning_rate)

    def network(obs):
      """Q network of the agent."""
      flatten = lambda x: jnp.reshape(x, (-1,))
      mlp = hk.Sequential(
          [flatten,
           hk.nets.MLP(num_hiddens + [self._num_actions])])
      return mlp(obs)

    self._network = hk.without_apply_rng(hk.transform(network, apply_rng=True))
    # Jitting for speed.
    self.actor_step = jax.jit(self.actor_step)
    self.learner_step = jax.jit(self.learner_step)

  def initial_params(self, rng_key):
    """Initialises the agent params given the RNG key."""
    sample_input = self._observation_spec.generate_value()
    sample_input = jnp.expand_dims(sample_input, 0)
    return self._network.init(rng_key, sample_input)

  def initial_learner_state(self, params):
    return self._optimizer.init(params)

  def actor_step(self, params, timestep, rng_key, evaluation):
    """Given the observation, computes the action using epsilon-greedy algorithm."""
    qvalues = self._network.apply(params, timestep.observation)
    if np.random.random() > self._epsilon:
      train_a = jnp.argmax(qvalues)
    else:
      train_a = jax.random.choice(rng_key, self._num_actions)

    # If evaluating, return the greedy action. Otherwise, return the
    # epsilon-greedy action.
    return jax.lax.select(evaluation, jnp.argmax(qvalues), train_a)

  def learner_step(self, params: hk.Params, data, learner_state, rng_key):
    """Computes loss, its gradient w.r.t. params, and runs an optimisation step."""
    dloss_dtheta, loss = jax.grad(self._loss, has_aux=True)(params, *data)
    updates, learner_state = self._optimizer.update(
        dloss_dtheta, learner_state)
    params = optax.apply_updates(params, updates)
    return params, learner_state, loss

  def _loss(self, params, obs_tm1, a_tm1, r_t, discount_t, obs_t):
    """Computes the TD error loss."""
    q_tm1 = self._network.apply(params, obs_tm1)
    q_t = self._network.apply(params, obs_t)

    chex.assert_rank([q_tm1, a_tm1, r_t, discount_t, q_t], [1, 0, 0, 0, 1])
    chex.assert_type([q_tm1, a_tm1, r_t, discount_t, q_t],
                     [float, int, float, float, float])

    target_tm1 = r_t + discount_t * jnp.max(q_t)
    target_tm1 = jax.lax.stop_gradient(target_tm1)
    td_error = target_tm1 - q_tm1[a_tm1]
    loss = 0.5 * td_error ** 2
    return loss, loss
# ---- cell 43
batch_size = 1
train_episodes = 60  # scaffolding: 60 episodes instead of 500
evaluate_every = 50
eval_episodes = 10
seed = 1221

rng = hk.PRNGSequence(jax.random.PRNGKey(seed))

# Initialise the environment.
env = Catch()
timestep = env.reset()

# Build and initialise the agent.
agent = QlearningAgent(env.action_spec(),
                       env.observation_spec())
params = agent.initial_params(next(rng))
learner_state = agent.initial_learner_state(params)

# Initialise the accumulator.
accumulator = TransitionAccumulator()

# Run loop.
_calls = 0  # scaffolding
avg_returns = []
losses = []

for episode in range(train_episodes):

  # Prepare agent, environment and accumulator for a new episode.
  timestep = env.reset()
  accumulator.push(timestep, None)

  while not timestep.last():
    # Acting.
    action = agent.actor_step(params, timestep, next(rng), False)
    _calls += 1  # scaffolding
    # Agent-environment interaction.
    timestep = env.step(action)
    # Accumulate experience.
    accumulator.push(timestep, action)

    # Learning.
    if accumulator.is_ready(batch_size):
      params, learner_state, loss = agent.learner_step(
          params, accumulator.sample(batch_size), learner_state, next(rng))
      losses.append(np.asarray(loss))

  # Evaluation.
  if not episode % evaluate_every:
    returns = []
    for _ in range(eval_episodes):
      timestep = env.reset()
      timesteps = [timestep]
      while not timestep.last():
        action = agent.actor_step(params, timestep, next(rng), True)
        _calls += 1  # scaffolding
        timestep = env.step(action)
        timesteps.append(timestep)
      returns.append(np.sum([item.reward for item in timesteps[1:]]))

    avg_returns.append(np.mean(returns))
    print(f"Episode {episode:4d}: Average returns: {avg_returns[-1]:.2f}")
_report({"jit(actor_step)"}, _calls)  # scaffolding
