# source: https://github.com/tinker495/jax-baseline/commit/6f1e7ceb8bf19dff90d626e6f24114f5fdcb8044
# expect: unhashable-static at line 173
# runtime: ERROR ValueError
# why: _train_step is jitted with static_argnums=1, which on the bound method is target_params (a haiku params dict of arrays) rather than the step counter, so the first call fails to hash the static argument and raises ValueError.

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

from typing import List

import jax
import jax.numpy as jnp
import haiku as hk
import numpy as np
import optax


# haiku_baselines/common/utils.py (jax.tree_multimap, removed from JAX, spelled jax.tree_util.tree_map)
@jax.jit
def soft_update(new_tensors, old_tensors, tau : float):
    return jax.tree_util.tree_map(
      lambda new, old: tau * new + (1.0 - tau) * old,
      new_tensors, old_tensors)

@jax.jit
def convert_jax(obs : List):
  return [jax.device_get(o).astype(jnp.float32)*(1.0/255.0) if len(o.shape) >= 4 else jax.device_get(o) for o in obs]


# haiku_baselines/TD3/network.py
class Actor(hk.Module):
    def __init__(self,action_size,node=256,hidden_n=2):
        super(Actor, self).__init__()
        self.action_size = action_size
        self.node = node
        self.hidden_n = hidden_n
        self.layer = hk.Linear
        
    def __call__(self,feature: jnp.ndarray) -> jnp.ndarray:
            action = hk.Sequential(
                [
                    self.layer(self.node) if i%2 == 0 else jax.nn.relu for i in range(2*self.hidden_n)
                ] + 
                [
                    self.layer(self.action_size[0]),
                    jax.nn.tanh
                ]
                )(feature)
            return action
        
class Critic(hk.Module):
    def __init__(self,node=256,hidden_n=2):
        super(Critic, self).__init__()
        self.node = node
        self.hidden_n = hidden_n
        self.layer = hk.Linear
        
    def __call__(self,feature: jnp.ndarray,actions: jnp.ndarray) -> jnp.ndarray:
        concat = jnp.concatenate([feature,actions],axis=1)
        q1_net = hk.Sequential(
            [
                self.layer(self.node) if i%2 == 0 else jax.nn.relu for i in range(2*self.hidden_n)
            ] + 
            [
                self.layer(1)
            ]
            )(concat)
        q2_net = hk.Sequential(
            [
                self.layer(self.node) if i%2 == 0 else jax.nn.relu for i in range(2*self.hidden_n)
            ] + 
            [
                self.layer(1)
            ]
            )(concat)
        return q1_net,q2_net


class _ReplayBuffer:  # scaffolding: cpprb ReplayBuffer stand-in with random transitions
    def __init__(self, obs_dim, act_dim):
        self.rs = np.random.RandomState(0)
        self.obs_dim, self.act_dim = obs_dim, act_dim

    def sample(self, batch_size):
        return dict(obses=[self.rs.randn(batch_size, self.obs_dim).astype(np.float32)],
                    actions=self.rs.uniform(-1, 1, (batch_size, self.act_dim)).astype(np.float32),
                    rewards=self.rs.randn(batch_size, 1).astype(np.float32),
                    nxtobses=[self.rs.randn(batch_size, self.obs_dim).astype(np.float32)],
                    dones=np.zeros((batch_size, 1), np.float32))


class Deteministic_Policy_Gradient_Family(object):  # scaffolding: DDPG/base_class.py cut to the attributes TD3 uses
    def __init__(self, env, gamma=0.99, learning_rate=3e-4, buffer_size=100000, train_freq=1, gradient_steps=1, batch_size=32,
                 n_step=1, learning_starts=1000, target_network_update_tau=2e-4, prioritized_replay=False,
                 prioritized_replay_alpha=0.6, prioritized_replay_beta0=0.4, prioritized_replay_eps=1e-6,
                 log_interval=200, tensorboard_log=None, _init_setup_model=True, policy_kwargs=None,
                 full_tensorboard_log=False, seed=None, optimizer='adamw'):
        self.env = env
        self.key_seq = hk.PRNGSequence(42 if seed is None else seed)
        self.batch_size = batch_size
        self.log_interval = log_interval
        self.policy_kwargs = policy_kwargs
        self.prioritized_replay = prioritized_replay
        self.prioritized_replay_eps = prioritized_replay_eps
        self.target_network_update_tau = target_network_update_tau
        self._gamma = gamma ** n_step
        self.observation_space = [[3]]
        self.action_size = [1]
        self.worker_size = 1
        self.optimizer = optax.adamw(learning_rate)
        self.replay_buffer = _ReplayBuffer(3, 1)
        self.summary = None


# haiku_baselines/TD3/td3.py before the commit (printing, learn() and description cut)
class TD3(Deteministic_Policy_Gradient_Family):
    def __init__(self, env, gamma=0.99, learning_rate=3e-4, buffer_size=100000,target_action_noise_mul = 1.5, 
                 action_noise = 0.1, train_freq=1, gradient_steps=1, batch_size=32, policy_delay = 3,
                 n_step = 1, learning_starts=1000, target_network_update_tau=2e-4, prioritized_replay=False,
                 prioritized_replay_alpha=0.6, prioritized_replay_beta0=0.4, prioritized_replay_eps=1e-6, 
                 log_interval=200, tensorboard_log=None, _init_setup_model=True, policy_kwargs=None, 
                 full_tensorboard_log=False, seed=None, optimizer = 'adamw'):
        
        super(TD3, self).__init__(env, gamma, learning_rate, buffer_size, train_freq, gradient_steps, batch_size,
                 n_step, learning_starts, target_network_update_tau, prioritized_replay,
                 prioritized_replay_alpha, prioritized_replay_beta0, prioritized_replay_eps,
                 log_interval, tensorboard_log, _init_setup_model, policy_kwargs, 
                 full_tensorboard_log, seed, optimizer)
        
        self.action_noise = action_noise
        self.traget_action_noise = action_noise*target_action_noise_mul
        self.action_noise_clamp = 0.5 #self.target_action_noise*1.5
        self.policy_delay = policy_delay
        
        if _init_setup_model:
            self.setup_model() 
            
    def setup_model(self):
        self.policy_kwargs = {} if self.policy_kwargs is None else self.policy_kwargs
        self.preproc = hk.transform(lambda x: jnp.concatenate([o.reshape(o.shape[0], -1) for o in x], axis=-1))  # scaffolding: PreProcess(self.observation_space, cnn_mode=cnn_mode)
        self.actor = hk.transform(lambda x: Actor(self.action_size,
                           **self.policy_kwargs)(x))
        self.critic = hk.transform(lambda x,a: Critic(**self.policy_kwargs)(x,a))
        pre_param = self.preproc.init(next(self.key_seq),
                            [np.zeros((1,*o),dtype=np.float32) for o in self.observation_space])
        feature = self.preproc.apply(pre_param, None, [np.zeros((1,*o),dtype=np.float32) for o in self.observation_space])
        actor_param = self.actor.init(next(self.key_seq), feature)
        critic_param = self.critic.init(next(self.key_seq), feature, self.actor.apply(actor_param, None, feature))
        self.params = hk.data_structures.merge(pre_param, actor_param, critic_param)
        self.target_params = self.params
        
        self.opt_state = self.optimizer.init(self.params)

        self._get_actions = jax.jit(self._get_actions)
        self._train_step = jax.jit(self._train_step,static_argnums=1)
        
    def _get_actions(self, params, obses, key = None) -> jnp.ndarray:
        return self.actor.apply(params, key, self.preproc.apply(params, key, convert_jax(obses))) #
    
    def train_step(self, steps, gradient_steps):
        # Sample a batch from the replay buffer
        for _ in range(gradient_steps):
            if self.prioritized_replay:
                data = self.replay_buffer.sample(self.batch_size,self.prioritized_replay_beta0)
            else:
                data = self.replay_buffer.sample(self.batch_size)
            
            self.params, self.target_params, self.opt_state, loss, t_mean, new_priorities = \
                self._train_step(self.params, self.target_params, self.opt_state, steps, next(self.key_seq),
                                 **data)
            
            if self.prioritized_replay:
                self.replay_buffer.update_priorities(data['indexes'], new_priorities)
            
        if self.summary and steps % self.log_interval == 0:
            self.summary.add_scalar("loss/qloss", loss, steps)
            self.summary.add_scalar("loss/targets", t_mean, steps)
            
        return loss

    def _train_step(self, params, target_params, opt_state, step, key, 
                    obses, actions, rewards, nxtobses, dones, weights=1, indexes=None):
        obses = convert_jax(obses); nxtobses = convert_jax(nxtobses); not_dones = 1.0 - dones
        targets = self._target(target_params, rewards, nxtobses, not_dones, key)
        (critic_loss,abs_error), critic_grad = jax.value_and_grad(self._critic_loss,has_aux = True)(params, obses, actions, targets, weights, key)
        updates, opt_state = self.optimizer.update(critic_grad, opt_state, params=params)
        params = optax.apply_updates(params, updates)
        if bool(step % self.policy_delay == 0):
            actor_loss, actor_grad = jax.value_and_grad(self._actor_loss)(params, obses, key)
            updates, opt_state = self.optimizer.update(actor_grad, opt_state, params=params)
            params = optax.apply_updates(params, updates)
        target_params = soft_update(params, target_params, self.target_network_update_tau)
        new_priorities = None
        if self.prioritized_replay:
            new_priorities = abs_error + self.prioritized_replay_eps
        return params, target_params, opt_state, critic_loss, actor_loss, new_priorities
    
    def _critic_loss(self, params, obses, actions, targets, weights, key):
        feature = self.preproc.apply(params, key, obses)
        q1, q2 = self.critic.apply(params, key, feature, actions)
        error1 = jnp.squeeze(q1 - targets)
        error2 = jnp.squeeze(q2 - targets)
        return jnp.mean(weights*(jnp.square(error1) + jnp.square(error2))), jnp.abs(error1)
    
    def _actor_loss(self, params, obses, key):
        feature = self.preproc.apply(params, key, obses)
        policy = self.actor.apply(params, key, feature)
        vals, _ = self.critic.apply(jax.lax.stop_gradient(params), key, feature, policy)
        return jnp.mean(-vals)
    
    def _target(self, target_params, rewards, nxtobses, not_dones, key):
        next_feature = self.preproc.apply(target_params, key, nxtobses)
        next_action = jnp.clip(
                      self.actor.apply(target_params, key, next_feature) \
                      + jnp.clip(self.traget_action_noise*jax.random.normal(key,(self.batch_size,self.action_size[0])),-self.action_noise_clamp,self.action_noise_clamp)
                      ,-1 + 1e-2,1 - 1e-2)
        q1, q2 = self.critic.apply(target_params, key, next_feature, next_action)
        next_q = jnp.minimum(q1,q2)
        return (not_dones * next_q * self._gamma) + rewards


agent = TD3(None, batch_size=16)  # scaffolding: env stand-in is built into the base class
try:  # scaffolding
    for steps in range(1, 7):  # scaffolding: learn() calls train_step once per env step after learning_starts
        loss = agent.train_step(steps, 1)
    print(float(loss) > 0)  # scaffolding
    _report({"jit(_train_step)"}, 6)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
