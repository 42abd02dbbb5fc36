# source: https://github.com/TheUnsolvedDev/JaxStormer/blob/8afe6073eb7333d4786160a83dd6a8069efd4ba2/ReinforcementLearning/Non_Atari/DQN.py
# expect: jit-in-loop-or-body at line 217
# runtime: COMPILES 4 CALLS 228
# why: train_single_step ends every episode with jax.clear_caches(), which throws away the compiled update (and the jitted value.apply), so the first update of each following episode traces and compiles it again: one compile per episode instead of one per run.
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


import jax
import numpy as np
import jax.numpy as jnp
from types import SimpleNamespace  # scaffolding: gymnasium is not installed; a CartPole-shaped stand-in below


class _StubCartPole:  # scaffolding: reset/step API of gymnasium's CartPole-v1; every episode lasts 60 steps
    action_space = SimpleNamespace(n=2)  # scaffolding
    observation_space = SimpleNamespace(shape=(4,))  # scaffolding

    def reset(self, seed=None):  # scaffolding
        self._t = 0  # scaffolding
        self._rng = np.random.default_rng(seed)  # scaffolding
        return self._rng.normal(size=4).astype(np.float32), {}  # scaffolding

    def step(self, action):  # scaffolding
        self._t += 1  # scaffolding
        return self._rng.normal(size=4).astype(np.float32), 1.0, self._t >= 60, False, {}  # scaffolding


gym = SimpleNamespace(make=lambda name: _StubCartPole())  # scaffolding
import flax
from flax.training.train_state import TrainState
import optax
import functools
# import matplotlib.pyplot as plt  # scaffolding: not installed; plot_data is not called below
import tqdm
import gc
import argparse

ALPHA = 0.0001
GAMMA = 0.99
BATCH_SIZE = 64
CAPACITY = 20000
UPDATE_EVERY = 20


def smooth_rewards(rewards, window_size=10):
    smoothed_rewards = np.zeros_like(rewards)
    for i in range(len(rewards)):
        window_start = max(0, i - window_size // 2)
        window_end = min(len(rewards), i + window_size // 2 + 1)
        smoothed_rewards[i] = np.mean(rewards[window_start:window_end])
    return smoothed_rewards


def plot_data(mean, std, name):
    x = range(len(mean))

    plt.plot(x, mean, color='blue', label='Mean')
    plt.plot(x, smooth_rewards(mean), color='orange', label='smoothed')
    plt.fill_between(x, mean - std, mean + std, color='blue',
                     alpha=0.3, label='Mean ± Std')

    plt.xlabel('Steps')
    plt.ylabel('Rewards')
    plt.title(name)
    plt.legend()
    plt.grid(True)
    plt.savefig(name.replace(' ', '_')+'.png')
    # plt.show(block = False)
    plt.close()


def linear_schedule(start_e: float, end_e: float, duration: int, t: int):
    slope = (end_e - start_e) / duration
    return max(slope * t + start_e, end_e)


class ValueNetwork(flax.linen.Module):
    action_dim: int

    @flax.linen.compact
    def __call__(self, x: jnp.ndarray):
        x = flax.linen.Dense(16)(x)
        x = flax.linen.selu(x)
        x = flax.linen.Dense(16)(x)
        x = flax.linen.selu(x)
        q_values = flax.linen.Dense(self.action_dim)(x)
        return q_values


class ReplayBuffer:
    def __init__(self, capacity):
        self.capacity = capacity
        self.buffer = []
        self.position = 0

    def push(self, transition):
        if len(self.buffer) < self.capacity:
            self.buffer.append(transition)
        else:
            self.buffer[self.position] = transition
        self.position = (self.position + 1) % self.capacity

    def sample(self, batch_size):
        return np.random.choice(len(self.buffer), size=(batch_size,))

    def get_batch(self, indices):
        states, actions, rewards, next_states, dones = zip(
            *[self.buffer[i] for i in indices])
        states = jnp.array(states)
        actions = jnp.array(actions)
        rewards = jnp.array(rewards)
        next_states = jnp.array(next_states)
        dones = jnp.array(dones)
        return states, actions, rewards, next_states, dones


class TrainState(TrainState):
    target_params: flax.core.FrozenDict


class DQN:
    def __init__(self, env, num_actions, observation_shape, seed=0) -> None:
        self.seed = seed
        self.rng = jax.random.PRNGKey(seed)
        self.num_actions = num_actions
        self.observation_shape = observation_shape
        self.env = env

        self.value = ValueNetwork(action_dim=num_actions)
        self.value_state = TrainState.create(
            apply_fn=self.value.apply,
            params=self.value.init(self.rng, jnp.ones(observation_shape)),
            target_params=self.value.init(
                self.rng, jnp.ones(observation_shape)),
            tx=optax.adam(learning_rate=ALPHA)
        )
        self.value.apply = jax.jit(self.value.apply)
        self.value_state = self.value_state.replace(target_params=optax.incremental_update(
            self.value_state.params, self.value_state.target_params, 0.9))
        self.replay_buffer = ReplayBuffer(CAPACITY)
        self.counter = 1
        self.updates = 1

    def sample(self, state, epsilon=0.1):
        if np.random.uniform() < epsilon:
            return np.random.randint(0, self.num_actions)
        q_values = self.value.apply(self.value_state.params, state)
        action = np.array(q_values).argmax(axis=-1)[0]
        return action

    @functools.partial(jax.jit, static_argnums=(0,))
    def update(self, value_state, states, actions, rewards, next_states,  dones):
        value_next_target = self.value.apply(
            value_state.target_params, next_states)
        value_next_target = jnp.max(value_next_target, axis=-1)
        next_q_value = (rewards + (1 - dones) * GAMMA * value_next_target)

        def mse_loss(params):
            value_pred = self.value.apply(params, states)
            value_pred = jnp.sum(
                value_pred*jax.nn.one_hot(actions, num_classes=self.num_actions), axis=-1)
            return ((jax.lax.stop_gradient(next_q_value) - value_pred) ** 2).mean()

        loss_value, grads = jax.value_and_grad(
            mse_loss)(value_state.params)
        value_state = value_state.apply_gradients(grads=grads)
        return loss_value, value_state

    def train_single_step(self):
        state = self.env.reset(seed=self.seed)[0]
        key = self.rng
        epsilon = linear_schedule(
            start_e=1, end_e=0.05, duration=500, t=0 if self.counter <= 50 else self.counter-50)
        episode_loss, episode_rewards = 0, 0
        for _ in range(500):
            action = self.sample(np.expand_dims(state, axis=0), epsilon)
            next_state, reward, done, truncated, info = self.env.step(action)
            self.replay_buffer.push(
                [state, action, reward, next_state, done or truncated])
            state = next_state
            episode_rewards += reward

            if truncated or done:
                break

            if len(self.replay_buffer.buffer) > 128:
                indices = self.replay_buffer.sample(BATCH_SIZE)
                states, actions, rewards, next_states, dones = self.replay_buffer.get_batch(
                    indices)
                loss_values, self.value_state = self.update(self.value_state,
                                                            states, actions, rewards, next_states,  dones)
                if self.updates % UPDATE_EVERY == 0:
                    self.value_state = self.value_state.replace(target_params=optax.incremental_update(
                        self.value_state.params, self.value_state.target_params, 0.9))
                episode_loss += loss_values
                self.updates += 1
        gc.collect()
        jax.clear_caches()
        return episode_loss, episode_rewards


class Simulation:
    def __init__(self, env_name, algorithm) -> None:
        self.env_name = env_name
        self.algorithm = algorithm
        self.env = gym.make(self.env_name)
        self.num_actions = self.env.action_space.n
        self.observation_shape = self.env.observation_space.shape

    def train(self, num_avg=5, episodes=1000):
        self.losses, self.rewards = np.zeros(
            (num_avg, episodes)), np.zeros((num_avg, episodes))

        for seed in range(num_avg):
            self.algo = self.algorithm(
                self.env, self.num_actions, self.observation_shape, seed=seed)
            for ep in tqdm.tqdm(range(1, episodes+1)):
                loss, reward = self.algo.train_single_step()
                self.losses[seed][ep-1] = loss
                self.rewards[seed][ep-1] = reward


if __name__ == '__main__':

    cartpole_dqn_max = Simulation('CartPole-v1', algorithm=DQN)
    cartpole_dqn_max.train(num_avg=1, episodes=6)  # scaffolding: 1 seed x 6 episodes instead of 5 x 1000 (then Acrobot)
    _report({"jit(update)"}, cartpole_dqn_max.algo.updates - 1)  # scaffolding: number of update calls
