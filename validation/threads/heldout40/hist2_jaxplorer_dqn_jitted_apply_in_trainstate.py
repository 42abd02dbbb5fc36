# source: https://github.com/qlan3/Jaxplorer/commit/d01cce4d6bc87895fb6b5102cc32ce9ea59b5883
# expect: none
# runtime: COMPILES 2 CALLS 103
# why: The agent stores apply_fn=jax.jit(critic_net.apply) in its TrainState and calls it inside methods jitted with static self; the jitted apply is a static field of the same object on every step and inlines into the outer trace, so update_critic and optimal_action each compile once over the whole run.

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
# agents/DQN.py, agents/BaseAgent.py (TargetState, __init__, set_optim, save_experience) and components/replay.py (FiniteReplay) of qlan3/Jaxplorer at d01cce4^
import jax
import time
import random
import flax
import optax
import numpy as np
import jax.numpy as jnp
from functools import partial
from tqdm import tqdm
from flax.training.train_state import TrainState
import flax.linen as nn

jax.tree_map = jax.tree_util.tree_map  # scaffolding: jax.tree_map was removed from jax after this code was written


# --- scaffolding: toy CartPole-like env and the MLP Q-network of components/networks.py, shortened ---
class _Space:  # scaffolding
  def __init__(self, shape=None, n=None):
    self.shape, self.n = shape, n
  def sample(self):
    return np.random.randn(*self.shape).astype(np.float32) if self.shape else np.int64(np.random.randint(self.n))


class _ToyEnv:  # scaffolding
  observation_space = _Space(shape=(4,))
  action_space = _Space(n=2)
  def reset(self):
    self.t = 0
    return np.zeros(4, np.float32), {}
  def step(self, action):
    self.t += 1
    done = self.t >= 10
    return np.random.randn(4).astype(np.float32), 1.0, done, False, {'episode': {'r': [float(self.t)]}}


class MLPQNet(nn.Module):  # scaffolding: components/networks.MLPQNet, MLP inlined
  action_size: int = 2
  net_cfg: dict = None
  @nn.compact
  def __call__(self, obs):
    obs = obs.reshape((obs.shape[0], -1))  # flatten
    return nn.Dense(self.action_size)(nn.relu(nn.Dense(32)(obs)))
MinAtarQNet = MLPQNet  # scaffolding
# --- end scaffolding ---


import numpy as np


class FiniteReplay(object):
  '''
  Finite replay buffer to store experiences: FIFO (first in, firt out)
  '''
  def __init__(self, buffer_size, keys=None):
    if keys is None:
      keys = ['action', 'reward', 'mask']
    self.keys = keys
    self.buffer_size = int(buffer_size)
    self.clear()

  def clear(self):
    self.pos = 0
    self.full = False
    self.buffer = dict()

  def add(self, data):
    assert list(data) == self.keys
    if self.is_empty(): # Lazy initialization
      for k, v in data.items():
        if k in ['obs', 'next_obs', 'action']:
          self.buffer[k] = np.empty((self.buffer_size, *v.shape), dtype=v.dtype)
        else:
          self.buffer[k] = np.empty((self.buffer_size,))
    for k, v in data.items():
      self.buffer[k][self.pos] = v
    self.pos = (self.pos + 1) % self.buffer_size
    if self.pos == 0:
      self.full = True

  def sample(self, batch_size, keys=None):
    if keys is None:
      keys = self.keys
    # Sampling with replacement
    idxs = np.random.randint(0, self.size(), size=batch_size)
    batch = {k:self.buffer[k][idxs] for k in keys}
    return batch

  def get(self, batch_size, keys=None):
    if keys is None:
      keys = self.keys
    batch = {k:self.buffer[k][:batch_size] for k in keys}
    return batch
  
  def size(self):
    if self.full:
      return self.buffer_size
    else:
      return self.pos

  def is_empty(self):
    if self.size() == 0:
      return True
    else:
      return False
  
  def is_full(self):
    return self.full


class TargetState(TrainState):
  target_params: flax.core.FrozenDict = None


class BaseAgent(object):
  '''
  Implementation of Base Agent
  '''
  def __init__(self, cfg):
    cfg['agent'].setdefault('actor_update_steps', 1)
    cfg['agent'].setdefault('critic_update_steps', 1)
    cfg['agent'].setdefault('critic_num', 1)
    self.cfg = cfg
    # Set logger
    self.logger = None  # scaffolding: Logger cut
    # Set some varibles
    self.env_name = self.cfg['env']['name']
    self.agent_name = self.cfg['agent']['name']
    self.seed = jax.random.PRNGKey(cfg['seed'])
    self.config_idx = self.cfg['config_idx']
    self.discount = self.cfg['discount']
    self.train_steps = int(cfg['train_steps'])
    self.cfg['test_interval'] = int(cfg['test_interval'])
    self.cfg['display_interval'] = int(cfg['display_interval'])
    self.log_path = {'Train': self.cfg['train_log_path'], 'Test': self.cfg['test_log_path']}
    self.result = {'Train': [], 'Test': []}
    # Make environment
    self.env = {  # scaffolding: make_env (gymnasium) replaced by a toy env
      'Train': _ToyEnv(),
      'Test': _ToyEnv(),
    }
    self.obs_size = 4  # scaffolding
    self.action_type, self.action_size = 'DISCRETE', 2  # scaffolding

  def set_optim(self, optim_name, optim_kwargs, schedule=None):
    optim_kwargs.setdefault('anneal_lr', False)
    optim_kwargs.setdefault('grad_clip', -1)
    optim_kwargs.setdefault('max_grad_norm', -1)
    anneal_lr = optim_kwargs['anneal_lr']
    grad_clip = optim_kwargs['grad_clip']
    max_grad_norm = optim_kwargs['max_grad_norm']
    del optim_kwargs['anneal_lr'], optim_kwargs['grad_clip'], optim_kwargs['max_grad_norm']
    assert not (grad_clip > 0 and max_grad_norm > 0), 'Either grad_clip or max_grad_norm should be set.'
    if anneal_lr and schedule is not None:
      optim_kwargs['learning_rate'] = schedule
    if grad_clip > 0:
      optim = optax.chain(
        optax.clip(grad_clip),
        getattr(optax, optim_name.lower())(**optim_kwargs)
      )
    elif max_grad_norm > 0:
      optim = optax.chain(
        optax.clip_by_global_norm(max_grad_norm),
        getattr(optax, optim_name.lower())(**optim_kwargs)
      )
    else:
      optim = getattr(optax, optim_name.lower())(**optim_kwargs)
    return optim

  def save_experience(self, obs, action, reward, mask, next_obs):
    prediction = {
      'obs': obs,
      'action': action,
      'reward': reward,
      'mask': mask,
      'next_obs': next_obs
    }
    self.replay.add(prediction)

  def log_test_save(self, iter, train_iter, mode):  # scaffolding: test/checkpoint/log cut
    pass


class DQN(BaseAgent):
  """
  Implementation of DQN.
  """
  def __init__(self, cfg):
    super().__init__(cfg)
    self.cfg['agent'].setdefault('update_per_step', 1)
    if self.cfg['agent']['update_per_step'] < 1:
      self.update_epochs = int(1/self.cfg['agent']['update_per_step'])
      self.cfg['agent']['update_per_step'] = 1
    else:
      self.update_epochs = 1
      self.cfg['agent']['update_per_step'] = int(self.cfg['agent']['update_per_step'])
    assert self.action_type == 'DISCRETE', f'{self.agent_name} only supports discrete action spaces.'
    self.cfg['exploration_steps'] = max(int(self.cfg['exploration_steps']), self.cfg['batch_size'])
    # Set replay buffer
    self.replay = FiniteReplay(self.cfg['buffer_size'], keys=['obs', 'action', 'reward', 'mask', 'next_obs'])
    # Set networks
    self.createNN()

  def createNN(self):
    # Create train_state and net for critic
    dummy_obs = self.env['Train'].observation_space.sample()[None,]
    self.seed, critic_seed = jax.random.split(self.seed)
    if 'MinAtar' in self.env_name:
      QNet = MinAtarQNet
    else:
      QNet = MLPQNet
    self.critic_net = QNet(
      action_size = self.action_size,
      net_cfg = self.cfg['agent']['net_cfg']
    )
    self.critic_state = TargetState.create(
      apply_fn = jax.jit(self.critic_net.apply),
      params = self.critic_net.init(critic_seed, dummy_obs),
      target_params = self.critic_net.init(critic_seed, dummy_obs),
      tx = self.set_optim(self.cfg['optim']['name'], self.cfg['optim']['kwargs'])
    )

  def run_steps(self, mode='Train'):
    self.start_time = time.time()
    obs, info = self.env[mode].reset()
    for step in tqdm(range(self.train_steps), disable=not self.cfg['show_progress']):
      # Get an action
      action = self.get_action(step, obs[None,], mode)['action']
      # Take a env step
      next_obs, reward, terminated, truncated, info = self.env[mode].step(action)
      # Save experience
      mask = self.discount * (1-terminated)
      self.save_experience(obs, action, reward, mask, next_obs)
      # Update observation
      obs = next_obs
      # Record and reset
      if terminated or truncated:
        result_dict = {
          'Env': self.env_name,
          'Agent': self.agent_name,
          'Step': step,
          'Return': info['episode']['r'][0]
        }
        self.result[mode].append(result_dict)
        obs, info = self.env[mode].reset()
      # Update the agent
      if step > self.cfg['exploration_steps']:
        # Update critic
        if step % self.cfg['agent']['update_per_step'] == 0:
          batch = self.replay.sample(self.cfg['batch_size'])
          # batch = jax.device_put(batch)
          for _ in range(self.update_epochs):
            self.critic_state, self.seed = self.update_critic(self.critic_state, batch, self.seed)
        # Update target network
        if step % self.cfg['agent']['target_update_freq'] == 0: # optax.periodic_update is much slower ...
          self.critic_state = self.critic_state.replace(
            target_params = jax.tree_map(lambda x: x, self.critic_state.params)
          )
      # Display log, test, and save checkpoint
      self.log_test_save(step, self.train_steps, mode)

  def get_action(self, step, obs, mode='Train'):
    eps = self.linear_schedule(step)
    if mode == 'Train' and random.random() < eps: # jax.random.uniform is really slow...
      action = self.env[mode].action_space.sample()
    else:
      action = self.optimal_action(self.critic_state, obs)
      action = jax.device_get(action)[0] # jax.device_get(action[0]) is much slower
    return dict(action=action)
  
  def linear_schedule(self, step):
    slope = (self.cfg['agent']['eps_end'] - self.cfg['agent']['eps_start']) / self.cfg['agent']['eps_steps']
    eps = max(slope * step + self.cfg['agent']['eps_start'], self.cfg['agent']['eps_end'])
    return eps
  
  @partial(jax.jit, static_argnames=['self'])
  def optimal_action(self, critic_state, obs):
    q_values = critic_state.apply_fn(critic_state.params, obs) # Shape: (batch, action)
    action = q_values.argmax(axis=-1) # Shape: (batch,)
    return action

  @partial(jax.jit, static_argnames=['self'])
  def update_critic(self, critic_state, batch, seed):
    # Compute target q values
    q_next = critic_state.apply_fn(critic_state.target_params, batch['next_obs']) # Shape: (batch, action)
    q_next = jnp.max(q_next, axis=-1) # Shape: (batch,)
    q_target = batch['reward'] + batch['mask'] * q_next # Shape: (batch,)
    # Compute critic loss
    def critic_loss(params):
      q = critic_state.apply_fn(params, batch['obs']) # Shape: (batch, action)
      q = q[jnp.arange(q.shape[0]), batch['action']] # Shape: (batch,)
      loss = ((q - q_target)**2).mean()
      return loss
    grads = jax.grad(critic_loss)(critic_state.params)
    critic_state = critic_state.apply_gradients(grads=grads)
    return critic_state, seed

# --- scaffolding: a short run (configs/*.json of the repo give these keys) ---
cfg = {  # scaffolding
  'env': {'name': 'CartPole-v1', 'kwargs': {}}, 'agent': {'name': 'DQN', 'net_cfg': {'hidden_dims': [32, 32], 'hidden_act': 'ReLU'},
  'eps_start': 1.0, 'eps_end': 0.1, 'eps_steps': 50, 'target_update_freq': 20},
  'optim': {'name': 'Adam', 'kwargs': {'learning_rate': 1e-3}}, 'seed': 0, 'config_idx': 1, 'discount': 0.99,
  'train_steps': 80, 'test_interval': -1, 'display_interval': -1, 'ckpt_interval': -1, 'test_episodes': 1,
  'exploration_steps': 32, 'batch_size': 32, 'buffer_size': 1000, 'logs_dir': None, 'show_progress': False,
  'train_log_path': None, 'test_log_path': None,
}
_calls = [0]  # scaffolding
for _name in ("optimal_action", "update_critic"):  # scaffolding: count the calls of the two jitted methods
  def _counted(self, *a, _f=getattr(DQN, _name), **k):  # scaffolding
    _calls[0] += 1  # scaffolding
    return _f(self, *a, **k)  # scaffolding
  setattr(DQN, _name, _counted)  # scaffolding
random.seed(0); np.random.seed(0)  # scaffolding: deterministic exploration
agent = DQN(cfg)  # scaffolding
agent.run_steps()  # scaffolding
_report({"jit(update_critic)", "jit(optimal_action)"}, _calls[0])  # scaffolding
