# source: https://github.com/mauricef/jax-ml/blob/bb0047857e9a74ae120ae0dd37eea58a3583cdc1/jax-actor-critic.ipynb
# expect: shape-churn at line 187
# runtime: COMPILES 16 CALLS 8
# why: each episode ends at a different step, so the jitted compute_loss, vmapped over the episode inside value_and_grad, gets a new batch length every episode and compiles again (16 compiles for 8 episodes; the eager lax.scan of the returns recompiles per length too).
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



# cell 0
# https://www.tensorflow.org/tutorials/reinforcement_learning/actor_critic

# cell 1
import collections

# import gym  # scaffolding: not installed; stand-in below
import haiku as hk
# import matplotlib.pyplot as plt  # scaffolding: not installed; stand-in below
import optax
from jax import jit, lax, vmap, value_and_grad  # scaffolding: jax.partial (2021) no longer exists
from functools import partial  # scaffolding
import jax.nn as nn
import jax.numpy as np
import jax.random as random
from jax.tree_util import tree_map
import tqdm

nn.normalize = nn.standardize  # scaffolding: jax.nn.normalize (2021) was renamed jax.nn.standardize
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

# cell 2
env = gym.make("CartPole-v0")
gamma = .99
num_actions = env.action_space.n  # 2
num_hidden_units = 128
max_steps = 200
optimizer = optax.adam(learning_rate=.01)
eps = np.finfo(np.float32).eps.item()

# cell 3
def net_present_value(rate, values):
    def step(total, value):
        total = value + rate * total
        return total, total
    _, discounted_values = lax.scan(step, init=0, xs=values, reverse=True)
    return discounted_values

# cell 4
def get_values(rewards):
    values = net_present_value(gamma, rewards)
    return nn.normalize(values, epsilon=eps)

# cell 5
def env_init(rng):
    seed = random.randint(r, shape=(), minval=0, maxval=np.iinfo(np.int32).max)
    env.seed(int(seed))
    return np.array(env.reset())

# cell 6
def env_step(action):
    state, reward, done, _ = env.step(int(action))
    return (np.array(state), np.array(reward), np.array(done))

# cell 7
@hk.without_apply_rng
@hk.transform
def model(x):
    x = hk.Linear(num_hidden_units, name='common')(x)
    x = nn.relu(x)
    actor = hk.Linear(2, name='actor')(x)
    critic = hk.Linear(1, name='critic')(x)
    return actor, critic

# cell 8
@jit
def sample_policy(rng, model_state, state):
    policy, _ = model.apply(model_state, state)
    rng, r = random.split(rng)
    return random.categorical(r, policy)

# cell 9
def run_episode(rng, model_state):
    def generate_episode(rng, state):
        for i in range(max_steps):
            rng, r = random.split(rng)
            action = sample_policy(r, model_state, state)
            next_state, reward, done = env_step(action)
            yield (state, action, reward)
            state = next_state
            if done:
                break

                
    rng, r = random.split(rng)
    initial_state = env_init(r)
    episodes = generate_episode(rng, initial_state)
    return tuple(map(np.array, zip(*episodes)))

# cell 10
def huber_loss(yp, y, delta=1.):
    residual = np.abs(y - yp)
    return np.where(residual < delta, .5 * residual ** 2, residual - .5)

# cell 11
@jit
def compute_loss(model_state, state, action, value):
    policy_logits, predicted_value = model.apply(model_state, state)
    advantage = value - predicted_value
    policy_probs = nn.softmax(policy_logits)
    action_prob = policy_probs[action]
    action_log_prob = np.log(action_prob)
    actor_loss = -action_log_prob * advantage
    critic_loss = huber_loss(predicted_value, value)
    return actor_loss + critic_loss

# cell 12
@value_and_grad
def compute_loss_and_grads(model_state, states, actions, values):
    losses = vmap(partial(compute_loss, model_state))(states, actions, values)
    return np.sum(losses)

# cell 13
def train_step(episode, model_state, opt_state):
    states, actions, rewards = episode
    values = get_values(rewards)
    loss_value, loss_grads = compute_loss_and_grads(model_state, states, actions, values)
    model_updates, opt_state = optimizer.update(loss_grads, opt_state, model_state)
    model_state = optax.apply_updates(model_state, model_updates)
    episode_reward = np.sum(rewards)
    return episode_reward, loss_value, model_state, opt_state

# cell 14
rng = random.PRNGKey(42)
rng, r = random.split(rng)
model_state = model.init(r, env_init(r))
opt_state = optimizer.init(model_state)

# cell 15
max_episodes = 8  # scaffolding: 8 episodes instead of 500
max_steps_per_episode = 200

items = []
with tqdm.trange(max_episodes) as t:
    for i in t:
        rng, r = random.split(rng)
        episode = run_episode(r, model_state)
        rng, r = random.split(rng)
        episode_reward, loss_value, model_state, opt_state = train_step(episode, model_state, opt_state)
        episode_reward.block_until_ready()
        items.append((episode_reward, loss_value))

# cell 16
episode_rewards, loss_values = tuple(map(np.array, zip(*items)))

# cell 17
plt.plot(episode_rewards)

# cell 18
plt.plot(loss_values)

_report({"jit(compute_loss)"}, max_episodes)  # scaffolding: train_step runs once per episode
