# source: https://github.com/tobiasmerkt/Jax_RL/blob/fe0da7facea5a470a4b919411b9c20a2047818b0/UI/ac_example.py
# expect: shape-churn at line 227; jit-in-loop-or-body at line 160
# runtime: COMPILES 3 CALLS 3
# why: the jitted get_expected_return gets each episode's rewards, whose length differs every episode, so it compiles 3 times for 3 calls; run_episode also wraps a fresh bound ActorCritic(...).apply in jit every episode, so jit(apply) compiles again each episode (6 compiles over 3 episodes).
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



# import gym  # scaffolding: not installed; stand-in below
import jax
from jax import jit, numpy as jnp
import numpy as np
import flax
import flax.linen as nn
from flax.training import train_state
import optax
import tqdm
import collections  # used for storing last 100 rewards
# from matplotlib import pyplot as plt  # scaffolding: not installed (unused)
import time
import sys
sys.path.append('/tikhome/tmerkt/PycharmProjects/Jax_RL')
# ---- scaffolding: gym is not installed; a minimal gym 0.21 CartPole-v0 (old API: seed/reset/step -> 4-tuple, 200-step limit) ----
import math  # scaffolding
import numpy  # scaffolding
from types import SimpleNamespace  # scaffolding


class _CartPoleV0:  # scaffolding: gym.envs.classic_control.CartPoleEnv (gym 0.21) inside TimeLimit
    def __init__(self):  # scaffolding
        self.action_space = SimpleNamespace(n=2)  # scaffolding
        self.np_random = numpy.random.default_rng(0)  # scaffolding
        self.state = None  # scaffolding
        self.steps_beyond_done = None  # scaffolding
        self._elapsed = 0  # scaffolding

    def seed(self, seed=None):  # scaffolding
        self.np_random = numpy.random.default_rng(seed)  # scaffolding
        return [seed]  # scaffolding

    def reset(self, seed=None):  # scaffolding: gym 0.21 reset(seed=...) returns the observation only
        if seed is not None:  # scaffolding
            self.np_random = numpy.random.default_rng(seed)  # scaffolding
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
        if self._elapsed >= 500:  # scaffolding: TimeLimit(max_episode_steps=500) for CartPole-v1
            done = True  # scaffolding
        return numpy.array(self.state, dtype=numpy.float32), reward, done, {}  # scaffolding

    def render(self):  # scaffolding: no window
        pass  # scaffolding

    def close(self):  # scaffolding
        pass  # scaffolding


gym = SimpleNamespace(make=lambda name: _CartPoleV0())  # scaffolding: gym.make("CartPole-v1")

# Create the environment
env = gym.make("CartPole-v1")

# Set seed
seed = 42
env.reset(seed=seed)
key = jax.random.PRNGKey(seed)
key1, key2 = jax.random.split(key)
np.random.seed(seed)
eps = np.finfo(np.float32).eps.item()  # used when dividing values
num_actions = env.action_space.n  # 2
num_hidden_units = 128


class ActorCritic(nn.Module):
    """Combined actor critic network"""
    num_actions: int
    num_hidden_units: int

    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.Dense(self.num_hidden_units)(x))
        actor = nn.Dense(self.num_actions)(x)
        critic = nn.Dense(1)(x)
        return actor, critic


def create_train_state(rng, learning_rate):
    """Creates initial TrainState."""
    model = ActorCritic(
        num_actions=num_actions,
        num_hidden_units=num_hidden_units)
    params = model.init(rng, jnp.ones_like(env.reset()))
    optimizer = optax.adam(learning_rate=lr)
    return train_state.TrainState.create(
        apply_fn=model.apply, params=params, tx=optimizer)


# Collect training data
def env_step(action: jnp.array):
    state, reward, done, _ = env.step(action)
    return (jnp.array(state, dtype=jnp.float32),
            jnp.array(reward, dtype=jnp.int32),
            jnp.array(done, dtype=jnp.int32))


def run_episode(
        initial_state: jnp.array,
        params: flax.core.frozen_dict.FrozenDict,
        max_steps: int):
    """
    Run a single episode to collect training data
    """

    action_probs = jnp.array([], dtype=jnp.float32)
    values = jnp.array([], dtype=jnp.float32)
    rewards = jnp.array([], dtype=jnp.float32)

    apply_fn = ActorCritic(num_actions, num_hidden_units).apply
    apply_fn_jit = jit(apply_fn)
    softmax_fn = nn.softmax
    softmax_fn_jit = jit(softmax_fn)

    for t in range(max_steps):
        action_logits_t, value = apply_fn_jit(params, initial_state)

        # Sample action from action probability distribution
        rng = jax.random.PRNGKey(np.random.randint(0, 1236534623))
        action = jax.random.categorical(rng, logits=action_logits_t)
        action_probs_t = softmax_fn_jit(action_logits_t)

        # Store probs of action chosen
        action_probs = jnp.append(action_probs, action_probs_t[action])

        # Store critic values
        values = jnp.append(values, value)

        # Apply action to environment to get next state and reward
        state, reward, done = env_step(jax.device_get(action))

        # Store reward
        rewards = jnp.append(rewards, reward)
        initial_state = state
        if done == True:
            break
    return action_probs, values, rewards


# Compute expected return
@jit
def get_expected_return(
        rewards: jnp.array,
        gamma: float,
        standardize: bool = True) -> jnp.array:
    """Compute expected returns per timestep"""

    rewards = rewards[::-1]
    discounted_sum = 0.0
    returns = jnp.array([], dtype=jnp.float32)

    for i in range(len(rewards)):
        reward = rewards[i]
        discounted_sum = reward + gamma * discounted_sum
        returns = jnp.append(returns, discounted_sum)
    returns = returns[::-1]

    if standardize:
        returns = ((returns - jnp.mean(returns)) / (jnp.std(returns) + eps))

    return returns


# Shared Actor-Critic loss
def compute_loss(
        initial_state: jnp.array,
        params: flax.core.frozen_dict.FrozenDict,
        max_steps_per_episode: int):
    """Computes combined actor-critic loss."""

    # Run model for one episode to collect training data
    action_probs, values, rewards = run_episode(
        initial_state=initial_state,
        params=params,
        max_steps=max_steps_per_episode)

    # Calculate expected returns
    returns = get_expected_return(rewards, gamma)
    advantage = returns - values

    action_log_probs = jnp.log(action_probs)
    actor_loss = - jnp.sum(action_log_probs * advantage)

    critic_loss = jnp.sum(
        optax.huber_loss(predictions=values, targets=returns))

    return actor_loss + critic_loss, rewards


# Training Step
def train_step(
        initial_state: jnp.array,
        state: flax.core.frozen_dict.FrozenDict,
        gamma: float,
        max_steps_per_episode: int):
    """Runs a model training step."""

    # Calculating loss and grad values to update network. Also calculate rewards
    grads, rewards = jax.grad(
        compute_loss,
        argnums=(1), has_aux=True)(
        initial_state,
        state.params,
        max_steps_per_episode)

    # Update state
    state = state.apply_gradients(grads=grads)

    # Calculate total episode reward
    episode_reward = int(jnp.sum(rewards))

    return episode_reward, state

# Run loop
min_episodes_criterion = 20
max_episodes = 3  # scaffolding: 3 episodes instead of 10000
max_steps_per_episode = 1000
lr = 1e-2

# Stop when average reward >= 195 over 100 consecutive trials
reward_threshold = 195
running_reward = 0

# Discount factor for future rewards
gamma = 0.99

# Keep running reward of last episodes
episodes_reward: collections.deque = collections.deque(maxlen=min_episodes_criterion)

# Initialise state
state = create_train_state(key1, lr)
start_time = time.time() #TODO
with tqdm.trange(max_episodes) as t:
    for i in t:
        initial_state = jnp.array(env.reset(), dtype=jnp.float32)
        episode_reward, state = train_step(
            initial_state,
            state,
            gamma,
            max_steps_per_episode)

        episodes_reward.append(jax.device_get(episode_reward))
        running_reward = np.mean(episodes_reward)

        t.set_description(f'Episode {i}')
        t.set_postfix(
            episode_reward=episode_reward, running_reward=running_reward)

        # Show average episode reward every 10 episodes
        if i % 10 == 0:
            print('.')

        if running_reward > reward_threshold and i >= min_episodes_criterion:
            break
end_time = time.time() #TODO
print(f'\nSolved at episode {i}: average reward: {running_reward}!')
print(f'Time Difference: ', end_time - start_time)

print(f"jit(apply) compiles: {_COMPILED.count('jit(apply)')} over {max_episodes} episodes")  # scaffolding: run_episode re-wraps a new bound apply each episode
_report({"jit(get_expected_return)"}, max_episodes)  # scaffolding: get_expected_return is called once per episode
