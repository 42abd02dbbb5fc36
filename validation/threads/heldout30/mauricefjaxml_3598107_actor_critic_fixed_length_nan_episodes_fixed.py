# source: https://github.com/mauricef/jax-ml/blob/3598107f32934fac6689a052f04a40df818edcbb/actor-critic.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 8
# why: the published notebook pads every episode to 200 steps with nan rewards (as its notes say, unlike the variable-length TF version) and jits the whole train_step, so train_step compiles once for 8 episodes.
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



# cell 1
# %pip install dm-haiku optax  # scaffolding: notebook magic; the packages are installed

# cell 3
import collections

# import gym  # scaffolding: not installed; stand-in below
import haiku as hk
# import matplotlib.pyplot as plt  # scaffolding: not installed; stand-in below
import numpy as onp
import optax
from jax import jit, lax, vmap, value_and_grad  # scaffolding: jax.partial (2021) no longer exists
from functools import partial  # scaffolding
import jax.nn as nn
import jax.numpy as np
import jax.random as random
from jax.tree_util import tree_map
import tqdm

# ---- scaffolding: gym is not installed; a minimal gym 0.21 CartPole-v0 (old API: seed/reset/step -> 4-tuple, 200-step limit) ----
import math  # scaffolding
import numpy  # scaffolding
from types import SimpleNamespace  # scaffolding


class _CartPoleV0:  # scaffolding: gym.envs.classic_control.CartPoleEnv (gym 0.21) inside TimeLimit(200)
    def __init__(self):  # scaffolding
        self.action_space = SimpleNamespace(n=2)  # scaffolding
        self.np_random = numpy.random.default_rng(0)  # scaffolding
        self.state = None  # scaffolding
        self.steps_beyond_done = None  # scaffolding
        self._elapsed = 0  # scaffolding

    def seed(self, seed=None):  # scaffolding
        self.np_random = numpy.random.default_rng(seed)  # scaffolding
        return [seed]  # scaffolding

    def reset(self):  # scaffolding
        self.state = self.np_random.uniform(low=-0.05, high=0.05, size=(4,))  # scaffolding
        self.steps_beyond_done = None  # scaffolding
        self._elapsed = 0  # scaffolding
        return numpy.array(self.state, dtype=numpy.float32)  # scaffolding

    def step(self, action):  # scaffolding
        x, x_dot, theta, theta_dot = self.state  # scaffolding
        force = 10.0 if action == 1 else -10.0  # scaffolding
        costheta, sintheta = math.cos(theta), math.sin(theta)  # scaffolding
        temp = (force + 0.05 * theta_dot**2 * sintheta) / 1.1  # scaffolding
        thetaacc = (9.8 * sintheta - costheta * temp) / (0.5 * (4.0 / 3.0 - 0.1 * costheta**2 / 1.1))  # scaffolding
        xacc = temp - 0.05 * thetaacc * costheta / 1.1  # scaffolding
        x, x_dot = x + 0.02 * x_dot, x_dot + 0.02 * xacc  # scaffolding
        theta, theta_dot = theta + 0.02 * theta_dot, theta_dot + 0.02 * thetaacc  # scaffolding
        self.state = (x, x_dot, theta, theta_dot)  # scaffolding
        done = bool(x < -2.4 or x > 2.4 or theta < -12 * 2 * math.pi / 360 or theta > 12 * 2 * math.pi / 360)  # scaffolding
        if not done:  # scaffolding
            reward = 1.0  # scaffolding
        elif self.steps_beyond_done is None:  # scaffolding
            self.steps_beyond_done = 0  # scaffolding
            reward = 1.0  # scaffolding
        else:  # scaffolding
            self.steps_beyond_done += 1  # scaffolding
            reward = 0.0  # scaffolding
        self._elapsed += 1  # scaffolding
        if self._elapsed >= 200:  # scaffolding: TimeLimit(max_episode_steps=200)
            done = True  # scaffolding
        return numpy.array(self.state, dtype=numpy.float32), reward, done, {}  # scaffolding


gym = SimpleNamespace(make=lambda name: _CartPoleV0())  # scaffolding: gym.make("CartPole-v0")
plt = SimpleNamespace(plot=lambda *a, **k: None)  # scaffolding: matplotlib is not installed

# cell 4
Episode = collections.namedtuple('Episode', 'state action reward value')

# cell 5
env = gym.make("CartPole-v0")
gamma = .99
num_actions = env.action_space.n  # 2
num_hidden_units = 128
episode_steps = 200
optimizer = optax.adam(learning_rate=.01)
eps = np.finfo(np.float32).eps.item()

# cell 6
@jit
def scan_stack(ys):
    return tuple(map(np.array, zip(*ys)))

# cell 7
def scan(f, init, xs=None, length=None):
    if xs is None:
        xs = [None] * length
    carry = init
    ys = []
    for x in xs:
        carry, y = f(carry, x)
        ys.append(y)
    return carry, scan_stack(ys)

# cell 8
# nan aware helpers

def safe_mean(x):
    mask = ~np.isnan(x)
    n = np.count_nonzero(mask)
    total = np.sum(np.nan_to_num(x))
    return total / n

def safe_var(x):
    return safe_mean(np.square(x)) - np.square(safe_mean(x))

def safe_normalize(x, epsilon=eps):
    mean = safe_mean(x)
    var = safe_var(x)
    return (x - mean) * lax.rsqrt(var + epsilon)

def safe_npv(rate, xs):
    def step(total, x):
        total = x + rate * total
        return total, total
    mask = ~np.isnan(xs)
    xs = np.nan_to_num(xs)
    _, ys = lax.scan(step, init=0., xs=xs, reverse=True)
    ys = np.where(mask, ys, np.nan)
    return ys

# cell 9
@jit
def get_values(rewards, gamma=gamma):
    values = safe_npv(gamma, rewards)
    return safe_normalize(values, epsilon=eps)

# cell 10
def env_is_done(env):
    return env.steps_beyond_done is not None

# cell 11
def env_init(rng):
    seed = random.randint(r, shape=(), minval=0, maxval=np.iinfo(np.int32).max)
    env.seed(int(seed))
    return np.array(env.reset())

# cell 12
def env_step(action):
    if env_is_done(env):
        state, reward = onp.array(env.state), np.nan
    else:
        state, reward, _, _ = env.step(int(action))
    return state, reward

# cell 13
@hk.without_apply_rng
@hk.transform
def model(x):
    x = hk.Linear(num_hidden_units, name='common')(x)
    x = nn.relu(x)
    actor = hk.Linear(2, name='actor')(x)
    critic = hk.Linear(1, name='critic')(x)
    return actor, critic

# cell 14
@jit
def sample_policy(rng, model_state, state):
    policy, _ = model.apply(model_state, state)
    return random.categorical(rng, policy)

# cell 15
def generate_episode(rng, model_state):
    def generate_step(state, rng):
        action = sample_policy(rng, model_state, state)
        next_state, reward = env_step(action)
        return next_state, (state, action, reward)

    rng, r = random.split(rng)
    initial_state = env_init(r)
    rngs = np.array(random.split(rng, episode_steps))
    _, (state, action, reward) = scan(generate_step, initial_state, xs=rngs)
    value = get_values(reward)
    return Episode(state, action, reward, value)

# cell 16
def huber_loss(yp, y, delta=1.):
    residual = np.abs(y - yp)
    return np.where(residual < delta, .5 * residual ** 2, residual - .5)

# cell 17
@jit
def loss_fn(model_state, step):
    policy_logits, predicted_value = model.apply(model_state, step.state)
    advantage = step.value - predicted_value
    policy_probs = nn.softmax(policy_logits)
    action_prob = policy_probs[step.action]
    action_log_prob = np.log(action_prob)
    actor_loss = -action_log_prob * advantage
    critic_loss = huber_loss(predicted_value, step.value)
    loss = actor_loss + critic_loss
    return loss

# cell 18
@value_and_grad
def compute_loss_and_grads(model_state, episode):
    def compute_loss_step(step):
        w = tree_map(lambda a: np.where(np.isnan(step.reward), lax.stop_gradient(a), a), model_state)
        loss = loss_fn(w, step)
        loss = np.nan_to_num(loss)
        return loss
    losses = vmap(partial(compute_loss_step))(episode)
    return np.sum(losses)

# cell 19
@jit
def train_step(episode, model_state, opt_state):
    loss_value, loss_grads = compute_loss_and_grads(model_state, episode)
    model_updates, opt_state = optimizer.update(loss_grads, opt_state, model_state)
    model_state = optax.apply_updates(model_state, model_updates)
    episode_reward = np.sum(np.nan_to_num(episode.reward))
    return episode_reward, loss_value, model_state, opt_state

# cell 20
rng = random.PRNGKey(42)

# cell 21
rng, r = random.split(rng)
model_state = model.init(r, env_init(r))
opt_state = optimizer.init(model_state)

max_episodes = 8  # scaffolding: 8 episodes instead of 10000
max_steps_per_episode = 200
min_episodes_criterion = 100
reward_threshold = 195
running_reward = 0
gamma = 0.99
episodes_reward = collections.deque(maxlen=min_episodes_criterion)

with tqdm.trange(max_episodes) as t:
    for i in t:
        rng, r = random.split(rng)
        episode = generate_episode(r, model_state)
        rng, r = random.split(rng)
        episode_reward, loss_value, model_state, opt_state = train_step(episode, model_state, opt_state)
        episodes_reward.append(episode_reward)
        running_reward = onp.mean(episodes_reward)
        
        t.set_description(f'Episode {i}')
        t.set_postfix(
            episode_reward=episode_reward, running_reward=running_reward)

        if running_reward > reward_threshold and i >= min_episodes_criterion:  
            break
            
print(f'\nSolved at episode {i}: average reward: {running_reward:.2f}!')

_report({"jit(train_step)"}, max_episodes)  # scaffolding: train_step runs once per episode
