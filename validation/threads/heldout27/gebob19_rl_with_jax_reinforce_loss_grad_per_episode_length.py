# source: https://github.com/gebob19/rl_with_jax/blob/34a1ce48c11ad75b1d192cce86d69e89d6a121b8/reinforce/reinforce_jax.py
# expect: shape-churn at line 195
# runtime: COMPILES 12 CALLS 34
# why: each REINFORCE update passes the whole episode (obs, actions, rewards stacked over its steps) to the jitted value_and_grad, so every new episode length is a new input shape and compiles again (12 compiles for 34 episodes).
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
# import distrax  # scaffolding: distrax not installed; stand-in below


class distrax:  # scaffolding: the three Categorical methods the script uses
    class Categorical:  # scaffolding
        def __init__(self, probs): self.probs = probs  # scaffolding
        def sample(self, seed): return jax.random.categorical(seed, np.log(self.probs))  # scaffolding
        def entropy(self): return -(self.probs * np.log(self.probs)).sum(-1)  # scaffolding
        def log_prob(self, a): return np.log(np.take_along_axis(self.probs, a[..., None], -1)[..., 0])  # scaffolding
import optax
# import gym  # scaffolding: gym not installed; a CartPole-shaped stand-in below


class _Space:  # scaffolding
    def __init__(self, n=None, shape=None): self.n, self.shape = n, shape  # scaffolding


class _CartPoleStandIn:  # scaffolding: 4-d observations, 2 actions, episodes of 8-20 steps like a short CartPole
    action_space, observation_space = _Space(n=2), _Space(shape=(4,))  # scaffolding
    def seed(self, s): self._rs = onp.random.RandomState(s)  # scaffolding
    def reset(self):  # scaffolding
        self._t, self._len = 0, self._rs.randint(8, 21)  # scaffolding
        return self._rs.uniform(-0.05, 0.05, 4)  # scaffolding
    def step(self, a):  # scaffolding
        self._t += 1  # scaffolding
        return self._rs.uniform(-0.05, 0.05, 4), 1.0, self._t >= self._len, {}  # scaffolding


class gym:  # scaffolding
    make = staticmethod(lambda name: _CartPoleStandIn())  # scaffolding
from functools import partial

from jax import config  # scaffolding: jax.config module import removed
config.update("jax_enable_x64", True) 
config.update("jax_debug_nans", True) # break on nans

#%%
env_name = 'CartPole-v0'
env = gym.make(env_name)
env.seed(0)  # scaffolding: the stand-in needs a seed before the dummy reset below

n_actions = env.action_space.n 
obs_dim = env.observation_space.shape[0]
print(f'[LOGGER] n_actions: {n_actions} obs_dim: {obs_dim}')

#%%
import haiku as hk 
init_final = hk.initializers.RandomUniform(-3e-3, 3e-3)

def _policy_fcn(obs):
    a_probs = hk.Sequential([
        hk.Linear(32), jax.nn.relu,
        hk.Linear(32), jax.nn.relu,
        hk.Linear(n_actions, w_init=init_final), jax.nn.softmax
    ])(obs)
    return a_probs 

policy_fcn = hk.transform(_policy_fcn)
policy_fcn = hk.without_apply_rng(policy_fcn)
p_frwd = jax.jit(policy_fcn.apply)

@jax.jit
def update_step(params, grads, opt_state):
    grads, opt_state = p_optim.update(grads, opt_state)
    params = optax.apply_updates(params, grads)
    return params, opt_state

def reward2go(r, gamma=0.99):
    for i in range(len(r) - 1)[::-1]:
        r[i] = r[i] + gamma * r[i+1]
    r = (r - r.mean()) / (r.std() + 1e-8)
    return r 

@jax.jit
def policy(p_params, obs, rng):
    a_probs = p_frwd(p_params, obs)
    dist = distrax.Categorical(probs=a_probs)
    a = dist.sample(seed=rng)
    entropy = dist.entropy()
    return a, entropy

def rollout(p_params, rng):
    global step_count
    
    observ, action, rew = [], [], []
    obs = env.reset()
    while True: 
        rng, subkey = jax.random.split(rng, 2) 
        a, entropy = policy(p_params, obs, subkey)
        a = a.item()

        writer.add_scalar('policy/entropy', entropy.item(), step_count)

        obs2, r, done, _ = env.step(a)
        step_count += 1
        pbar.update(1)

        observ.append(obs)
        action.append(a)
        rew.append(r)

        if done: break
        obs = obs2

    obs = np.stack(observ)
    a = np.stack(action)
    r = onp.stack(rew) # 

    return obs, a, r 

def reinforce_loss(p_params, obs, a, r):
    a_probs = p_frwd(p_params, obs)
    log_prob = distrax.Categorical(probs=a_probs).log_prob(a.astype(int))
    loss = -(log_prob * r).sum()
    return loss 

from functools import partial
def batch_reinforce_loss(params, batch):
    return jax.vmap(partial(reinforce_loss, params))(*batch).sum()

# %%
seed = 0  # scaffolding: was onp.random.randint(1e5); fixed for a reproducible count
policy_lr = 1e-3
batch_size = 32
max_n_steps = 500  # scaffolding: 100000 in the repo

rng = jax.random.PRNGKey(seed)
onp.random.seed(seed)
env.seed(seed)

obs = env.reset() # dummy input 
p_params = policy_fcn.init(rng, obs) 

## optimizers 
p_optim = optax.sgd(policy_lr)
p_opt_state = p_optim.init(p_params)

# %%
# from torch.utils.tensorboard import SummaryWriter  # scaffolding: torch not installed


class SummaryWriter:  # scaffolding: no-op stand-in
    def __init__(self, comment=''): pass  # scaffolding
    def add_scalar(self, *a, **k): pass  # scaffolding
    def add_histogram(self, *a, **k): pass  # scaffolding
writer = SummaryWriter(comment=f'reinforce_{env_name}_seed={seed}')

# %%
from tqdm import tqdm 

step_count = 0
epi_i = 0 
_calls = 0  # scaffolding

pbar = tqdm(total=max_n_steps)
gradients = []
loss_grad_fcn = jax.jit(jax.value_and_grad(batch_reinforce_loss))

while step_count < max_n_steps: 
    rng, subkey = jax.random.split(rng, 2) 
    obs, a, r = rollout(p_params, subkey)
    writer.add_scalar('rollout/reward', r.sum().item(), epi_i)
    r = reward2go(r)
    loss, grad = loss_grad_fcn(p_params, (obs, a, r))
    _calls += 1  # scaffolding

    writer.add_scalar('loss/loss', loss.item(), step_count)
    gradients.append(grad)

    epi_i += 1
    if epi_i % batch_size == 0:
        grads = jax.tree_util.tree_map(lambda *x: np.stack(x).sum(0), *gradients)  # scaffolding: jax.tree_multimap removed
        p_params, p_opt_state = update_step(p_params, grads, p_opt_state)

        for i, g in enumerate(jax.tree_util.tree_leaves(grads)):  # scaffolding: jax.tree_leaves removed
            name = 'b' if len(g.shape) == 1 else 'w'
            writer.add_histogram(f'{name}_{i}_grad', onp.array(g), epi_i)

        gradients = []

# %%
# %%
# %%
_report({"jit(batch_reinforce_loss)"}, _calls)  # scaffolding: one loss/grad call per episode
