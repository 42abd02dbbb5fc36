# source: https://github.com/Juno-T/jax-rl/commit/c8f1312d2dede465c86347f8fd935942d4a56a45
# expect: shape-churn at line 190
# runtime: COMPILES 2 CALLS 60
# why: the jitted select_action takes epsilon as an argument, but the script starts it as the Python int 1 (weak i32) while eval_act passes 0.0 and later decayed values are floats (weak f32), so select_action compiles twice: 2 compiles for 60 calls (jax_explain_cache_misses: epsilon now f32[], before i32[]).

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

from typing import NamedTuple

import numpy as np
import jax
from jax import random
import jax.numpy as jnp
from functools import partial
import haiku as hk
import optax


class _CartPole:  # scaffolding: gym.make('CartPole-v1') stand-in (4-dim obs, 2 actions, 10-step episodes)
    class observation_space:
        shape = (4,)

    class action_space:
        n = 2

    def reset(self, seed=None):
        self.t = 0
        return np.zeros(4, np.float32)

    def step(self, action):
        self.t += 1
        return np.full(4, 0.1 * self.t, np.float32), 1.0, self.t >= 10, {}


class Transition(NamedTuple):  # scaffolding: utils.experience.Transition, batched
    s_tm1: np.ndarray
    a_tm1: np.ndarray
    r_t: np.ndarray
    s_t: np.ndarray


# value_prediction/q.py
def q_learning_target(r_t, q_t, discount_t):
  """
  target = r_t + max(q_t)
  """

  target = r_t + discount_t * jnp.max(q_t)
  return target

def q_learning(q_tm1, a_tm1, r_t, q_t, discount_t, stop_gradient = False):
  target = q_learning_target(r_t, q_t, discount_t)
  target = jax.lax.select(stop_gradient, jax.lax.stop_gradient(target), target)
  return target - q_tm1[a_tm1]


# agents/dqn.py after the commit ('jit dqn agent action selection')
class MLP_TargetNetwork(hk.Module):
  """
  Just use hk.nets.MLP honestly.
  """
  def __init__(self, output_sizes, name='MLP_TargetNetwork'):
    super().__init__(name=name)
    self._internal_linear = hk.nets.MLP(output_sizes, name='internal_linear')

  def __call__(self, x):
    return self._internal_linear(x)

def get_transformed(*args, **kwargs):
  return hk.transform(lambda x: args[0](*args[1:], **kwargs)(x))

class BarebonesDqn(object):  # scaffolding: `(Agent)`, an abstract base with no state
  def __init__(self, env, network : hk.Transformed, epsilon, eps_decay_rate=0.99, discount=0.9, learning_rate=0.1, delay_update=10):
    self.env = env
    self.state_space = env.observation_space
    self.action_space = env.action_space
    self.network_init, network_apply = hk.without_apply_rng(network)
    optimizer = optax.adam(learning_rate=learning_rate)
    self.opt_init = optimizer.init
    self.eps_decay_rate = eps_decay_rate

    self.discount=discount
    self.init_epsilon = epsilon
    self.delay_update = delay_update
    self.step_count = 0
    
    @jax.jit
    def batch_value(params, batch_state):
      return jax.vmap(network.apply, in_axes=(None, None, 0))(params, None, batch_state)

    @jax.jit
    def loss(replay_params, target_params, s_tm1, a_tm1, r_t, s_t):
      q_tm1 = batch_value(replay_params, s_tm1)
      q_t = batch_value(target_params, s_t)
      errors = jax.vmap(q_learning, in_axes=(0,0,0,0,None,None))(q_tm1, a_tm1, r_t, q_t, discount, True)
      return jnp.mean(errors**2/2)

    @jax.jit
    def step(replay_params, target_params, opt_state, s_tm1, a_tm1, r_t, s_t):
      loss_value, grads = jax.value_and_grad(loss)(replay_params, target_params, s_tm1, a_tm1, r_t, s_t)
      updates, opt_state = optimizer.update(grads, opt_state, replay_params)
      replay_params = optax.apply_updates(replay_params, updates)
      return replay_params, opt_state, loss_value

    self.batch_value = batch_value
    self.step = step

    @jax.jit
    def select_action(observation, network_params, epsilon, rngkey):
      rngkey, rand_action_key = random.split(rngkey, 2)
      q_t = network_apply(network_params, x=observation)
      argmax_a = jnp.argmax(q_t)
      rn = random.uniform(rngkey)
      rand_action = random.randint(rand_action_key, (), 0, len(q_t))
      action = (rn<epsilon)* rand_action + (rn>=epsilon)*argmax_a
      return action
    
    self.select_action = select_action

  def train_init(self, rng_key):
    self.target_params = self.network_init(rng=rng_key, x=jnp.zeros(self.state_space.shape))
    self.replay_params = self.target_params
    self.opt_state = self.opt_init(self.replay_params)
    self.step_count = 0
    self.epsilon = self.init_epsilon


  def episode_init(self, initial_observation):
    pass

  def act(self, observation, rngkey):
    action = self.select_action(observation, self.replay_params, self.epsilon, rngkey)
    return int(action), self.discount

  def eval_act(self, observation, rngkey=None):
    action = self.select_action(observation, self.replay_params, 0.0, random.PRNGKey(0))
    return int(action), self.discount

  def learn_batch_transitions(self, transitions):
    s_tm1 = self.norm_state(transitions.s_tm1)
    a_tm1 = transitions.a_tm1
    r_t = transitions.r_t
    s_t = self.norm_state(transitions.s_t)
    
    self.replay_params, self.opt_state, self.recent_loss =self.step(self.replay_params,
                                                        self.target_params,
                                                        self.opt_state,
                                                        s_tm1,
                                                        a_tm1,
                                                        r_t,
                                                        s_t)
    self.step_count +=1
    self.epsilon *= self.eps_decay_rate
    if not self.step_count%self.delay_update:
      self.target_params=self.replay_params

  def norm_state(self, state):
    return state/jnp.array([4.8, 10, 0.42, 10]) # Cartpole


# scripts/dqn/train_cartpole.py main() and utils/experiment.py Trainer.train, cut down
_calls = [0]  # scaffolding: count select_action calls
config = {
  'eps_decay_rate':1-3e-3, 
  'learning_rate': .01,
  'delay_update':100
}
key = random.PRNGKey(42)
env = _CartPole()  # scaffolding: gym.make('CartPole-v1')
tn = get_transformed(MLP_TargetNetwork, output_sizes= [10, env.action_space.n]) # MLP [4, 10, 2]
epsilon = 1
agent = BarebonesDqn(env, 
                    tn, 
                    epsilon, 
                    eps_decay_rate=config['eps_decay_rate'], 
                    learning_rate=config['learning_rate'],
                    delay_update=config['delay_update'])
_select = agent.select_action  # scaffolding
agent.select_action = lambda *a: (_calls.__setitem__(0, _calls[0] + 1), _select(*a))[1]  # scaffolding: counting wrapper
rngkey, init_rngkey = random.split(key)
agent.train_init(init_rngkey)
buffer = []  # scaffolding: experience.Accumulator
for episode_number in range(4):  # scaffolding: train_episodes, evaluate_every=2
  rngkey, act_root_rngkey, eval_rngkey = random.split(rngkey, 3)
  observation = jnp.array(env.reset())
  done = False
  while not done:
    act_root_rngkey, act_rngkey = random.split(act_root_rngkey)
    action, discount = agent.act(observation, act_rngkey)
    next_observation, reward, done, info = env.step(action)
    buffer.append((np.asarray(observation), action, reward, next_observation))  # scaffolding
    observation = jnp.array(next_observation)
  idx = np.random.RandomState(episode_number).randint(0, len(buffer), 8)  # scaffolding: acc.sample_batch_transtions(sample_rngkey, batch_size)
  agent.learn_batch_transitions(Transition(*(np.stack([np.asarray(buffer[i][k], np.int32 if k == 1 else np.float32) for i in idx]) for k in range(4))))  # scaffolding
  if episode_number % 2 == 0:  # Trainer.eval
    observation = jnp.array(env.reset())
    done = False
    while not done:
      action, discount = agent.eval_act(observation, None)
      observation, reward, done, info = env.step(action)
      observation = jnp.array(observation)
_report({"jit(select_action)"}, _calls[0])  # scaffolding
