# source: https://github.com/tinker495/jax-baseline/commit/904a876ba49079649e768e531cddf63ba53f64e4
# expect: stale-closure at line 201
# runtime: COMPILES 1 CALLS 35
# why: _get_actions is a jitted bound method that reads self.params; the parameters are baked into the trace at the first call, so after train_step replaces self.params the agent keeps acting with the initial network (1 compile for 35 calls, actions disagree with the current Q-values).

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


class _Discrete:  # scaffolding: gym.spaces.Discrete stand-in
    def __init__(self, n):
        self.n = n


class _Box:  # scaffolding: gym.spaces.Box stand-in
    def __init__(self, shape):
        self.shape = shape


class _ToyEnv:  # scaffolding: a gym env stand-in (4-dim observation, 2 actions)
    action_space = _Discrete(2)
    observation_space = _Box((4,))

    def __init__(self):
        self.t = 0

    def reset(self):
        self.t = 0
        return np.ones(4, np.float32)

    def step(self, action):
        self.t += 1
        return np.full(4, 1.0 + 0.1 * self.t, np.float32), float(action == 1), self.t >= 8, {}


class _ReplayBuffer:  # scaffolding: cpprb_buffers.ReplayBuffer stand-in
    def __init__(self):
        self.data = []

    def add(self, obs_t, action, reward, nxtobs_t, done):
        self.data.append((obs_t[0][0], action, reward, nxtobs_t[0][0], done))

    def sample(self, batch_size):
        idx = np.random.RandomState(len(self.data)).randint(0, len(self.data), batch_size)
        o, a, r, n, d = (np.stack([self.data[i][k] for i in idx]) for k in range(5))
        return dict(obses=[o.astype(np.float32)], actions=a.reshape(-1, 1), rewards=r.reshape(-1, 1).astype(np.float32),
                    nxtobses=[n.astype(np.float32)], dones=d.reshape(-1, 1).astype(np.float32))


# haiku_baselines/common/utils.py (jax.tree_multimap, removed from JAX, spelled jax.tree_util.tree_map)
@jax.jit
def hard_update(new_tensors, old_tensors, steps: int, update_period: int):
  update = (steps % update_period == 0)
  return jax.tree_util.tree_map(
      lambda new, old: jax.lax.select(update, new, old),
      new_tensors, old_tensors)

@jax.jit
def convert_jax(obs : List):
  return [jax.device_get(o).astype(jnp.float32) if len(o.shape) >= 4 else jax.device_get(o) for o in obs]


# haiku_baselines/DQN/base_class.py before the commit (unity/minatar branches, tensorboard, schedules cut)
class Q_Network_Family(object):
    def __init__(self, env, gamma=0.99, learning_rate=5e-4, buffer_size=50000, exploration_fraction=0.3,
                 exploration_final_eps=0.02, exploration_initial_eps=1.0, train_freq=1, gradient_steps=1, batch_size=32, double_q=True,
                 dualing_model = False, n_step = 1, learning_starts=1000, target_network_update_freq=2000, prioritized_replay=False,
                 prioritized_replay_alpha=0.6, prioritized_replay_beta0=0.4, prioritized_replay_eps=1e-6, 
                 param_noise=False, munchausen=False, log_interval=200, tensorboard_log=None, _init_setup_model=True, policy_kwargs=None, 
                 full_tensorboard_log=False, seed=None):
        
        self.env = env
        self.log_interval = log_interval
        self.policy_kwargs = policy_kwargs
        self.seed = 42 if seed is None else seed
        self.key = jax.random.PRNGKey(self.seed)
        
        self.param_noise = param_noise
        self.learning_starts = learning_starts
        self.train_freq = train_freq
        self.gradient_steps = gradient_steps
        self.prioritized_replay = prioritized_replay
        self.batch_size = batch_size
        self.target_network_update_freq = target_network_update_freq
        self.learning_rate = learning_rate
        self.gamma = gamma
        self._gamma = self.gamma**n_step #n_step gamma
        self.double_q = double_q
        self.dualing_model = dualing_model
        self.munchausen = munchausen
        self.summary = None  # scaffolding: set by TensorboardWriter in learn()
        
        self.get_env_setup()
        self.replay_buffer = _ReplayBuffer()  # scaffolding: get_memory_setup()
        
    def get_env_setup(self):
        if True:  # scaffolding: `elif isinstance(self.env,gym.Env) or isinstance(self.env,gym.Wrapper):`
            action_space = self.env.action_space
            observation_space = self.env.observation_space
            self.observation_space = [list(observation_space.shape)]
            self.action_size = [action_space.n]
            self.worker_size = 1
            self.env_type = "gym"
    
    def actions(self,obs,epsilon,befor_train):
        if not befor_train and (epsilon <= np.random.uniform(0,1) or self.param_noise):
            actions = np.asarray(self._get_actions(obs))
        else:
            actions = np.random.choice(self.action_size[0], [self.worker_size,1])
        return actions

    def learn_gym(self, total_timesteps):  # scaffolding: cut down (observations kept as [obs[None]], no tensorboard)
        state = [np.expand_dims(self.env.reset(), axis=0)]
        befor_train = True
        for steps in range(total_timesteps):
            update_eps = 0.0  # scaffolding: self.exploration.value(steps), greedy here
            actions = self.actions(state,update_eps,befor_train)
            next_state, reward, terminal, info = self.env.step(actions[0][0])
            next_state = [np.expand_dims(next_state, axis=0)]
            self.replay_buffer.add(state, actions[0], reward, next_state, terminal)
            state = next_state
            if terminal:
                state = [np.expand_dims(self.env.reset(), axis=0)]
            if steps > self.learning_starts and steps % self.train_freq == 0:
                befor_train = False
                loss = self.train_step(steps,self.gradient_steps)


# haiku_baselines/DQN/dqn.py before the commit
class DQN(Q_Network_Family):
    def __init__(self, env, gamma=0.99, learning_rate=5e-4, buffer_size=50000, exploration_fraction=0.3,
                 exploration_final_eps=0.02, exploration_initial_eps=1.0, train_freq=1, gradient_steps=1, batch_size=32, double_q=True,
                 dualing_model = False, n_step = 1, learning_starts=1000, target_network_update_freq=2000, prioritized_replay=False,
                 prioritized_replay_alpha=0.6, prioritized_replay_beta0=0.4, prioritized_replay_eps=1e-6, 
                 param_noise=False, munchausen=False, log_interval=200, tensorboard_log=None, _init_setup_model=True, policy_kwargs=None, 
                 full_tensorboard_log=False, seed=None):
        
        super(DQN, self).__init__(env, gamma, learning_rate, buffer_size, exploration_fraction,
                 exploration_final_eps, exploration_initial_eps, train_freq, gradient_steps, batch_size, double_q,
                 dualing_model, n_step, learning_starts, target_network_update_freq, prioritized_replay,
                 prioritized_replay_alpha, prioritized_replay_beta0, prioritized_replay_eps, 
                 param_noise, munchausen, log_interval, tensorboard_log, _init_setup_model, policy_kwargs, 
                 full_tensorboard_log, seed)
        
        if _init_setup_model:
            self.setup_model() 
            
    def setup_model(self):
        self.key,sub_key = jax.random.split(self.key)
        self.policy_kwargs = {} if self.policy_kwargs is None else self.policy_kwargs
        self.preproc = hk.transform(lambda x: jnp.concatenate([o.reshape(o.shape[0], -1) for o in x], axis=-1))  # scaffolding: PreProcess(self.observation_space, cnn_mode=cnn_mode)
        self.model = hk.transform(lambda x: hk.nets.MLP([32, self.action_size[0]])(x))  # scaffolding: Model(self.action_size, dualing=..., noisy=...)
        pre_param = self.preproc.init(sub_key,
                            [np.zeros((1,*o),dtype=np.float32) for o in self.observation_space])
        model_param = self.model.init(sub_key,
                            self.preproc.apply(pre_param, 
                            None, [np.zeros((1,*o),dtype=np.float32) for o in self.observation_space]))
        self.params = hk.data_structures.merge(pre_param, model_param)
        self.target_params = self.params
        
        self.optimizer = optax.adamw(self.learning_rate)
        self.opt_state = self.optimizer.init(self.params)
        

        self.get_q = jax.jit(self.get_q)
        self._get_actions = jax.jit(self._get_actions)
        self._loss = jax.jit(self._loss)
        self._target = jax.jit(self._target)
        self._train_step = jax.jit(self._train_step)
    
    def get_q(self, params, obses) -> jnp.ndarray:
        return self.model.apply(params, None, self.preproc.apply(params, None, obses))
        
    def _get_actions(self, obses) -> jnp.ndarray:
        return jnp.expand_dims(jnp.argmax(self.get_q(self.params,convert_jax(obses)),axis=1),axis=1)
    
    def train_step(self, steps, gradient_steps):
        # Sample a batch from the replay buffer
        if self.prioritized_replay:
            data = self.replay_buffer.sample(self.batch_size,self.prioritized_replay_beta0)
        else:
            data = self.replay_buffer.sample(self.batch_size)
            
        for _ in range(gradient_steps):
            self.params, self.target_params, self.opt_state, loss, t_mean = \
                self._train_step(self.params, self.target_params, self.opt_state, steps, **data)
            
        if self.summary and steps % self.log_interval == 0:
            self.summary.add_scalar("loss/qloss", loss, steps)
            self.summary.add_scalar("loss/targets", t_mean, steps)
            
        return loss

    def _train_step(self, params, target_params, opt_state, steps, obses, actions, rewards, nxtobses, dones, weights=1, indexes=None):
        obses = convert_jax(obses); nxtobses = convert_jax(nxtobses); actions = actions.astype(jnp.int32); not_dones = 1.0 - dones
        target_params = hard_update(params, target_params, steps, self.target_network_update_freq)
        targets = self._target(params, target_params, obses, actions, rewards, nxtobses, not_dones)
        loss, grad = jax.value_and_grad(self._loss)(params, obses, actions, targets, weights)
        updates, opt_state = self.optimizer.update(grad, opt_state, params)
        params = optax.apply_updates(params, updates)
        return params, target_params, opt_state, loss, jnp.mean(targets)
    
    def _loss(self, params, obses, actions, targets, weights):
        vals = jnp.take_along_axis(self.get_q(params,obses), actions, axis=1)
        return jnp.mean(weights*jnp.square(vals - jax.lax.stop_gradient(targets)))
    
    def _target(self,params, target_params, obses, actions, rewards, nxtobses, not_dones):
        next_q = self.get_q(target_params,nxtobses)
        if self.double_q:
            next_actions = jnp.expand_dims(jnp.argmax(self.get_q(params,nxtobses),axis=1),axis=1)
        else:
            next_actions = jnp.expand_dims(jnp.argmax(next_q,axis=1),axis=1)
        next_vals = not_dones * jnp.take_along_axis(next_q, next_actions, axis=1)  # scaffolding: munchausen branch cut
        return next_vals * self._gamma + rewards


agent = DQN(_ToyEnv(), learning_starts=4, batch_size=8, learning_rate=0.05, target_network_update_freq=4)  # scaffolding
_calls = [0]  # scaffolding: count calls of the jitted _get_actions
_jitted_get_actions = agent._get_actions  # scaffolding


def _counting_get_actions(*args):  # scaffolding
    _calls[0] += 1  # scaffolding
    return _jitted_get_actions(*args)  # scaffolding


agent._get_actions = _counting_get_actions  # scaffolding
agent.learn_gym(40)  # scaffolding
obs = [np.ones((1, 4), np.float32)]  # scaffolding
fresh = jnp.argmax(agent.get_q(agent.params, obs), axis=1)  # scaffolding: the action the current params pick
print("actions use current params:", bool(agent._get_actions(obs)[0, 0] == fresh[0]))  # scaffolding
_report({"jit(_get_actions)"}, _calls[0])  # scaffolding
