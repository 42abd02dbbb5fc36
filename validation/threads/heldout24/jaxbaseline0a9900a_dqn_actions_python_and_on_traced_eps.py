# source: https://github.com/tinker495/jax-baseline/commit/0a9900a297ed4d8e003e98da7ba317eacd5e7613
# expect: trace-time-error at line 130
# runtime: ERROR TracerBoolConversionError
# why: the jitted _actions builds the lax.cond predicate with Python `and` on jax.random.uniform(key) < epsilon, a traced bool, so `and` calls bool() on a tracer and raises TracerBoolConversionError at the first action.

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


class _CartPoleLike:  # scaffolding: a gym env stand-in (4-dim observation, 2 actions)
    action_space = _Discrete(2)
    observation_space = _Box((4,))

    def __init__(self):
        self.t = 0

    def reset(self):
        self.t = 0
        return np.zeros(4, np.float32)

    def step(self, action):
        self.t += 1
        return np.full(4, 0.1 * self.t, np.float32), 1.0, self.t >= 5, {}


class LinearSchedule:  # scaffolding: haiku_baselines.common.schedules.LinearSchedule
    def __init__(self, schedule_timesteps, final_p, initial_p=1.0):
        self.schedule_timesteps, self.final_p, self.initial_p = schedule_timesteps, final_p, initial_p

    def value(self, t):
        fraction = min(float(t) / self.schedule_timesteps, 1.0)
        return self.initial_p + fraction * (self.final_p - self.initial_p)


# haiku_baselines/common/utils.py
def convert_states(obs : List):
  return [(o* 255.0).astype(np.uint8) if len(o.shape) >= 4 else o for o in obs]

@jax.jit
def convert_jax(obs : List):
  return [jax.device_get(o).astype(jnp.float32)/255.0 if len(o.shape) >= 4 else jax.device_get(o) for o in obs]


# haiku_baselines/DQN/base_class.py before the commit (unity/minatar branches, replay buffer and training cut)
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
        self.batch_size = batch_size
        self.exploration_final_eps = exploration_final_eps
        self.exploration_initial_eps = exploration_initial_eps
        self.exploration_fraction = exploration_fraction
        self.learning_rate = learning_rate
        self.gamma = gamma
        self.dualing_model = dualing_model
        
        self.params = None
        self.target_params = None
        
        self.get_env_setup()
        
        self._actions = jax.jit(self._actions)
        
        
    def get_env_setup(self):
        print("----------------------env------------------------")
        if True:  # scaffolding: `elif isinstance(self.env,gym.Env) or isinstance(self.env,gym.Wrapper):`
            print("openai gym environmet")
            action_space = self.env.action_space
            observation_space = self.env.observation_space
            self.observation_space = [list(observation_space.shape)]
            self.action_size = [action_space.n]
            self.worker_size = 1
            self.env_type = "gym"
    
    def _get_actions(self, params, obses) -> np.ndarray:
        pass
    
    def _actions(self, obs, epsilon, params, key):
        return jax.lax.cond((jax.random.uniform(key) < epsilon and not self.param_noise),
                            lambda params,obs,key: jax.random.choice(key,self.action_size[0],(self.worker_size,1)),
                            lambda params,obs,key: self._get_actions(params,obs,key),
                            (params,obs,key))
    
    def actions(self,obs,epsilon,befor_train):
        return np.asarray(self._actions(obs, epsilon, self.params, self.update_key()[0]))

    def learn_gym(self, total_timesteps):  # scaffolding: signature (pbar, callback, log_interval) cut
        self.exploration = LinearSchedule(schedule_timesteps=int(self.exploration_fraction * total_timesteps),  # scaffolding: from learn()
                                                initial_p=self.exploration_initial_eps,
                                                final_p=self.exploration_final_eps)
        state = convert_states([np.expand_dims(self.env.reset(),axis=0)])
        befor_train = True
        for steps in range(total_timesteps):  # scaffolding: trange(...) in learn()
            update_eps = self.exploration.value(steps)
            actions = self.actions(state,update_eps,befor_train)
            next_state, reward, terminal, info = self.env.step(actions[0][0])
            next_state = convert_states([np.expand_dims(next_state,axis=0)])
            state = next_state
            if terminal:
                state = convert_states([np.expand_dims(self.env.reset(),axis=0)])
                
            if steps > self.learning_starts and steps % self.train_freq == 0:
                befor_train = False
                # scaffolding: self.train_step(steps, self.gradient_steps) cut


# haiku_baselines/DQN/dqn.py
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
            
    def update_key(self,num=1):
        keys = jax.random.split(self.key,num=num+1)
        self.key = keys[0]
        return keys[1:]
            
    def setup_model(self):
        keys = self.update_key(2)
        self.policy_kwargs = {} if self.policy_kwargs is None else self.policy_kwargs
        self.preproc = hk.transform(lambda x: jnp.concatenate([o.reshape(o.shape[0], -1) for o in x], axis=-1))  # scaffolding: PreProcess(self.observation_space, cnn_mode=cnn_mode)
        self.model = hk.transform(lambda x: hk.nets.MLP([64, self.action_size[0]])(x))  # scaffolding: Model(self.action_size, dualing=..., noisy=...)
        pre_param = self.preproc.init(keys[0],
                            [np.zeros((1,*o),dtype=np.float32) for o in self.observation_space])
        model_param = self.model.init(keys[1],
                            self.preproc.apply(pre_param, 
                            None, [np.zeros((1,*o),dtype=np.float32) for o in self.observation_space]))
        self.params = hk.data_structures.merge(pre_param, model_param)
        self.target_params = self.params
        
        self.optimizer = optax.adamw(self.learning_rate)
        self.opt_state = self.optimizer.init(self.params)

        self.get_q = jax.jit(self.get_q)
        self._get_actions = jax.jit(self._get_actions)
    
    def get_q(self, params, obses, key = None) -> jnp.ndarray:
        return self.model.apply(params, key, self.preproc.apply(params, key, obses))
        
    def _get_actions(self, params, obses, key = None) -> jnp.ndarray:
        return jnp.expand_dims(jnp.argmax(self.get_q(params,convert_jax(obses),key),axis=1),axis=1)


agent = DQN(_CartPoleLike(), learning_starts=3)  # scaffolding: the repo's test scripts pass a gym env
try:  # scaffolding
    agent.learn_gym(8)  # scaffolding
    _report({"jit(_actions)"}, 8)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
