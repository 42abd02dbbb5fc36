# source: https://github.com/onnoeberhard/ajents/commit/5c7d37b744909120efe59f24ed78ba9923607737
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: episodes end at different steps, but rollout(pad=True) pads every rollout with nan up to env._max_episode_steps, so the jitted update (static self) sees the same shapes each iteration and compiles once for 4 calls.
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



import jax  # scaffolding
jax.tree_map = jax.tree.map  # scaffolding: jax.tree_map (2022) was removed in newer JAX

# ---- ajents/base.py ----
"""Base classes for Ajents"""
from functools import partial
import jax
import jax.numpy as jnp
import numpy as np
from tqdm.auto import tqdm


class Agent:
    """Abstract agent class"""
    def __init__(self, env, key):
        self.env = env
        self.key = key

    @partial(jax.jit, static_argnums=(0,))
    def _split_seed(self, key):
        key, subkey = jax.random.split(key)
        return subkey[0], key

    def reset(self, render=False):
        """Start new episode in environment and get first observation"""
        seed, self.key = self._split_seed(self.key)
        obs = self.env.reset(seed=np.asarray(seed).item())
        if render:
            self.render()
        return obs

    def step(self, action, render=False):
        """Take one step in environment, return True if done"""
        obs, reward, done, info = self.env.step(np.asarray(action))
        if render:
            self.render()
        return obs, reward, done, info

    def render(self):
        """Render state of the environment in window"""
        self.env.render()

    def rollout(self, steps=None, render=False, explore=True, pad=False):
        """Collect a rollout. If steps=None, one episode (until `done`) is collected."""
        # Initialize return variables
        observations = []
        actions = []
        rewards = []
        info = {'steps': 0, 'terminations': 0}

        # First observation
        obs = self.reset(render)
        observations.append(obs)

        # Run interaction loop
        steps_left = steps or np.inf
        while steps_left:
            # Sample and execute action
            action = self.act(obs, explore)
            obs, reward, done, _ = self.step(action, render)

            # Store interaction
            actions.append(action)
            rewards.append(reward)
            observations.append(obs)
            info['steps'] += 1
            info['terminations'] += done

            # Break if done
            steps_left -= 1
            if steps is None and done:
                break

        if pad:
            observations = np.array(
                observations + [np.ones_like(obs) * np.nan] * (self.env._max_episode_steps - len(observations)))
            actions = np.array(
                actions + [np.ones_like(action) * np.nan] * (self.env._max_episode_steps - len(actions)))
            rewards = np.array(rewards + [np.nan] * (self.env._max_episode_steps - len(rewards)))

        return observations, actions, rewards, info

    def rollouts(self, n_rollouts, array=True, progress=True, render=False):
        """Collect multiple rollouts"""
        observations = []
        actions = []
        rewards = []

        it = range(n_rollouts)
        if progress:
            it = tqdm(it, leave=False)

        for _ in it:
            os, as_, rs, _ = self.rollout(render=render, pad=array)
            observations.append(os)
            actions.append(as_)
            rewards.append(rs)

        if array:
            observations = jnp.array(np.array(observations))
            actions = jnp.array(np.array(actions))
            rewards = jnp.array(np.array(rewards))

        info = {}
        if progress:
            info['time'] = it._time() - it.start_t

        return observations, actions, rewards, info

    def act(self, obs, explore=True):
        """Sample action from policy"""
        raise NotImplementedError


# ---- ajents/pg.py ----
"""Policy Gradient algorithms"""
from functools import partial

import jax
import jax.numpy as jnp

# from ajents.base import Agent  # scaffolding: inlined above


class REINFORCE(Agent):
    """REINFORCE (Vanilla Policy Gradient) Agent class"""
    def __init__(self, env, key, log_policy, params, causal=True, baseline='mean'):
        super().__init__(env, key)
        self.log_policy = log_policy
        self.params = params
        self.baseline = baseline
        self.causal = causal

    @partial(jax.jit, static_argnums=(0,))
    @partial(jax.vmap, in_axes=(None, None, 0, 0))
    @partial(jax.vmap, in_axes=(None, None, 0, 0))
    def grad_log_policy(self, params, obs, action):
        """Gradient (wrt. params) of log-policy at given state-action pair"""
        return jax.lax.cond(jnp.isnan(action),
            lambda: jax.tree_map(lambda x: x*jnp.nan, params),
            lambda: jax.tree_map(lambda leaf: leaf[action.astype(int)], jax.jacobian(self.log_policy)(params, obs))
        )

    @partial(jax.jit, static_argnums=(0,))
    def _act_explore(self, params, obs, key):
        key, subkey = jax.random.split(key)
        return jax.random.categorical(subkey, self.log_policy(params, obs)), key

    @partial(jax.jit, static_argnums=(0,))
    def _act_exploit(self, params, obs):
        return jnp.argmax(self.log_policy(params, obs))

    def act(self, obs, explore=True):
        """Sample action from current policy"""
        if explore:
            action, self.key = self._act_explore(self.params, obs, self.key)
            return action
        return self._act_exploit(self.params, obs)

    @partial(jax.jit, static_argnums=(0,))
    def update(self, params, observations, actions, rewards, learning_rate):
        """Calculate policy gradient and take one gradient ascent step."""
        # Calculate policy gradient from rollouts
        grads = self.grad_log_policy(params, observations, actions)
        grads = jax.tree_map(lambda x: jnp.nansum(x, 1), grads)
        returns = jnp.nansum(rewards, 1)
        grads = jax.tree_map(lambda x: (x.T @ returns).T, grads)

        # Update policy
        return jax.tree_map(lambda p, g: p + learning_rate*g, params, grads), returns.mean()


    def learn(self, n_iterations, n_rollouts, learning_rate=0.01, render=False):
        """Train REINFORCE agent"""
        for j in range(n_iterations):
            # Collect rollouts
            observations, actions, rewards, info = self.rollouts(n_rollouts, render=render)

            # Update policy
            self.params, ret = self.update(self.params, observations, actions, rewards, learning_rate)

            # Monitoring
            print(f"Iteration {j + 1:{len(str(n_iterations))}d}/{n_iterations}. "
                  f"Average return = {ret:f}, Completed in {info['time']:.2f}s.")


# ---- examples/reinforce_linear.py ----
"""Train linear policy with REINFORCE on CartPole"""
import contextlib
from datetime import datetime
# import gym  # scaffolding: not installed; stand-in below
import jax
import click

# from ajents.pg import REINFORCE  # scaffolding: inlined above

# ---- scaffolding: gym is not installed; a minimal gym 0.21 CartPole-v0 (old API: seed/reset/step -> 4-tuple, 200-step limit) ----
import math  # scaffolding
import numpy  # scaffolding
from types import SimpleNamespace  # scaffolding


class _CartPoleV0:  # scaffolding: gym.envs.classic_control.CartPoleEnv (gym 0.21) inside TimeLimit(500)
    def __init__(self):  # scaffolding
        self.action_space = SimpleNamespace(n=2)  # scaffolding
        self.observation_space = SimpleNamespace(shape=(4,))  # scaffolding
        self._max_episode_steps = 500  # scaffolding: TimeLimit attribute for CartPole-v1
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
        if self._elapsed >= 500:  # scaffolding: TimeLimit(max_episode_steps=500)
            done = True  # scaffolding
        return numpy.array(self.state, dtype=numpy.float32), reward, done, {}  # scaffolding

    def render(self):  # scaffolding: no window
        pass  # scaffolding

    def close(self):  # scaffolding
        pass  # scaffolding


gym = SimpleNamespace(make=lambda name: _CartPoleV0())  # scaffolding: gym.make("CartPole-v1")


@click.command()
@click.option('--profile', is_flag=True, default=False)
def main(profile):
    """Train linear policy with REINFORCE on CartPole"""
    env = gym.make('CartPole-v1')

    @jax.jit
    def log_policy(params, obs):
        """Policy linear in observation"""
        return params['weights'] @ obs + params['bias']

    key = jax.random.PRNGKey(42)
    key, sk1, sk2 = jax.random.split(key, 3)
    params = {'weights': 0.01 * jax.random.normal(sk1, (env.action_space.n, env.observation_space.shape[0])),
            'bias': 0.01 * jax.random.normal(sk2, (env.action_space.n,))}

    key, subkey = jax.random.split(key)
    agent = REINFORCE(env, subkey, log_policy, params)
    start = datetime.now()
    with jax.profiler.trace('tmp/tensorboard') if profile else contextlib.nullcontext():
        agent.learn(4, 10, learning_rate=0.01)  # scaffolding: 4 iterations of 10 rollouts instead of 10 of 100
        print(f"Traning finished after {datetime.now() - start}!")
    for _ in range(1):  # scaffolding: one rendered rollout instead of an endless loop
        _, _, rewards, _ = agent.rollout(explore=False, render=True)
        print(f"Rollout score: {sum(rewards)}")

if __name__ == '__main__':
    main(args=[], standalone_mode=False)    # scaffolding: click entry point called without command-line arguments
    _report({"jit(update)"}, 4)  # scaffolding: update runs once per iteration
