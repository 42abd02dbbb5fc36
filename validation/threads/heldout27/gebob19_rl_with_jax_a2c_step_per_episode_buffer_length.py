# source: https://github.com/gebob19/rl_with_jax/blob/fd07f66617389ba67fbc3abc7ee34675dd6fc9c9/a2c/a2c.py
# expect: shape-churn at line 207
# runtime: COMPILES 12 CALLS 30
# why: rollout_v trims its 200-row buffer to the episode length (v_buffer[:i+1]) before the jitted a2c_step, so every new episode length is a new input shape and a2c_step compiles again (12 compiles for 30 episodes).
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



#%%
import jax 
import jax.numpy as np 
import numpy as onp 
# import matplotlib.pyplot as plt  # scaffolding: not installed (unused below)
# import gym  # scaffolding: gym not installed; a CartPole-shaped stand-in below


class _Space:  # scaffolding
    def __init__(self, n=None, shape=None): self.n, self.shape = n, shape  # scaffolding


class _CartPoleStandIn:  # scaffolding: 4-d observations, 2 actions, episodes of 8-20 steps
    action_space, observation_space = _Space(n=2, shape=()), _Space(shape=(4,))  # scaffolding
    _rs = onp.random.RandomState(0)  # scaffolding
    def reset(self):  # scaffolding
        self._t, self._len = 0, self._rs.randint(8, 21)  # scaffolding
        return self._rs.uniform(-0.05, 0.05, 4)  # scaffolding
    def step(self, a):  # scaffolding
        self._t += 1  # scaffolding
        return self._rs.uniform(-0.05, 0.05, 4), 1.0, self._t >= self._len, {}  # scaffolding


class gym:  # scaffolding
    make = staticmethod(lambda name: _CartPoleStandIn())  # scaffolding
import haiku as hk 
import random 
import optax

#%%
env = gym.make('CartPole-v0')

n_actions = env.action_space.n
obs_dim = env.observation_space.shape[0]

#%%
init_final = hk.initializers.RandomUniform(-3e-3, 3e-3)

def _policy_value(obs):
    pi = hk.Sequential([
        hk.Linear(64), jax.nn.relu, 
        hk.Linear(64), jax.nn.relu,
        hk.Linear(n_actions, w_init=init_final), jax.nn.softmax
    ])(obs)

    v = hk.Sequential([
        hk.Linear(64), jax.nn.relu, 
        hk.Linear(64), jax.nn.relu,
        hk.Linear(1, w_init=init_final),
    ])(obs)
    return pi, v

policy_value = hk.transform(_policy_value)
policy_value = hk.without_apply_rng(policy_value)
pv_frwd = jax.jit(policy_value.apply) # forward fcn

#%%
seed = 0  # scaffolding: was onp.random.randint(1e5); fixed for a reproducible count
print(f'[LOGGING] seed={seed}')
rng = jax.random.PRNGKey(seed)
onp.random.seed(seed)
random.seed(seed)

#%%
class Categorical: # similar to pytorch categorical
    def __init__(self, probs):
        self.probs = probs
    def sample(self): 
        # https://stackoverflow.com/questions/46539431/np-random-choice-probabilities-do-not-sum-to-1
        p = onp.asanyarray(self.probs)
        p = p / p.sum()
        a = onp.random.choice(onp.arange(len(self.probs)), p=p)
        return a 
    def log_prob(self, i): return np.log(self.probs[i])
    def entropy(self): return -(self.probs * np.log(self.probs)).sum()

def discount_cumsum(l, discount):
    l = onp.array(l)
    for i in range(len(l) - 1)[::-1]:
        l[i] = l[i] + discount * l[i+1]
    return l 

global_env_count = 0
def rollout_v(step_i, params, env, max_n_steps=200):
    global global_env_count

    obs = env.reset()
    # obs, obs2 + a, r, done, 
    v_buffer = onp.zeros((max_n_steps, 2 * obs_dim + 3))

    for i in range(max_n_steps):
        a_probs, v_s = pv_frwd(params, obs)
        a_dist = Categorical(a_probs)
        a = a_dist.sample()

        entropy = a_dist.entropy().item()
        writer.add_scalar('policy/entropy', entropy, global_env_count)
        writer.add_scalar('policy/value', v_s.item(), global_env_count)

        obs2, r, done, _ = env.step(a)        
        v_buffer[i] = onp.array([*obs, a, r, *obs2, float(done)])

        global_env_count += 1 
        obs = obs2 
        if done: break 

    v_buffer = v_buffer[:i+1]
    obs, a, r, obs2, done = onp.split(v_buffer, [obs_dim, obs_dim+1, obs_dim+2, obs_dim*2+2], axis=-1)
    writer.add_scalar('rollout/total_reward', r.sum(), step_i)

    r = discount_cumsum(r, discount=0.99)

    return obs, a, r, obs2, done

from functools import partial

# obs, a, r, obs2, done
def policy_loss(params, obs, a, r):
    a_probs, v_s = pv_frwd(params, obs)
    a_dist = Categorical(a_probs)

    log_prob = a_dist.log_prob(a.astype(np.int32))
    advantage = jax.lax.stop_gradient(r - v_s)
    policy_loss = -(log_prob * advantage).sum()
    
    entropy_loss = -0.001 * a_dist.entropy()
    return policy_loss + entropy_loss

def critic_loss(params, obs, r):
    _, v_s = pv_frwd(params, obs)
    return ((v_s - r) ** 2).sum()

def a2c_loss(params, sample):
    obs, a, r, _, _ = sample
    ploss = policy_loss(params, obs, a, r)
    vloss = critic_loss(params, obs, r)
    loss = ploss + 0.25 * vloss
    return loss, ploss, vloss
    
def batch_a2c_loss(params, samples):
    loss, ploss, vloss = jax.vmap(partial(a2c_loss, params))(samples)
    return loss.mean(), (ploss.mean(), vloss.mean())

@jax.jit
def a2c_step(samples, params, opt_state):
    (loss, (ploss, vloss)), grad = jax.value_and_grad(batch_a2c_loss, has_aux=True)(params, samples)
    grad, opt_state = optim.update(grad, opt_state)
    params = optax.apply_updates(params, grad)
    return loss, ploss, vloss, opt_state, params, grad

#%%
# from torch.utils.tensorboard import SummaryWriter  # scaffolding: torch not installed


class SummaryWriter:  # scaffolding: no-op stand-in
    def __init__(self, comment=''): pass  # scaffolding
    def add_scalar(self, *a, **k): pass  # scaffolding
writer = SummaryWriter(comment='a2c_test')

#%%
obs = env.reset() # dummy input 
a = np.zeros(env.action_space.shape)
params = policy_value.init(rng, obs) 

optim = optax.chain(
    optax.clip_by_global_norm(0.5),
    optax.scale_by_adam(),
    optax.scale(-1e-3),
)

opt_state = optim.init(params)

# from tqdm.notebook import tqdm 
from tqdm import tqdm 

n_episodes = 30  # scaffolding: 1000 in the repo
for step_i in tqdm(range(n_episodes)):

    samples = rollout_v(step_i, params, env)
    loss, ploss, vloss, opt_state, params, grads = a2c_step(samples, params, opt_state)

    writer.add_scalar('loss/loss', loss.item(), step_i)
    writer.add_scalar('loss/policy', ploss.item(), step_i)
    writer.add_scalar('loss/critic', vloss.item(), step_i)

    # for i, g in enumerate(jax.tree_leaves(grads)): 
    #     name = 'b' if len(g.shape) == 1 else 'w'
    #     writer.add_histogram(f'{name}_{i}_grad', onp.array(g), step_i)

# #%%
# #%%
_report({"jit(a2c_step)"}, n_episodes)  # scaffolding: one a2c_step per episode
