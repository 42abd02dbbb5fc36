# source: https://github.com/onnoeberhard/ajents/commit/f45c344bd3f4f78dcaece6bce8ab6d13e4582b2e
# expect: shape-churn at line 216
# runtime: COMPILES 6 CALLS 6
# why: before the commit, pad_rect pads each iteration's rollouts only to the longest episode of that batch, so the jitted update gets a new (n_rollouts, max_len) shape every iteration and compiles 6 times for 6 calls.
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
jax.tree_map = jax.tree.map  # scaffolding: jax.tree_map (2024) was removed in newer JAX

# ---- ajents/util.py ----
"""Utility functions"""
import numpy as np


def pad_rect(lists):
    """Turn a list of lists of arrays into a rectangular numpy array by padding with nans."""
    max_len = max(len(l) for l in lists)
    return np.array([l + [np.ones_like(l[0]) * np.nan] * (max_len - len(l)) for l in lists])


# ---- ajents/base.py ----
"""Base classes for Ajents"""
import jax
import jax.numpy as jnp
import numpy as np

class Agent:
    """Abstract agent class"""
    def act(self, obs, rng, explore=True):
        """Sample action from policy"""
        raise NotImplementedError

def rollout(agent, env, rng_agent, rng_env, steps=None, explore=True, live=False):
    """Collect a rollout of `agent` in `env`. If `steps` is `None`, one episode is collected."""
    # Initialize return variables
    observations = []
    actions = []
    rewards = []
    info = {'steps': 0, 'episodes': 0}

    # Initialize environment
    env.np_random = rng_env
    obs, _ = env.reset()
    observations.append(obs)
    if live:
        print('Actions: ', end='')

    # Run interaction loop
    steps_left = steps or np.inf
    while steps_left:
        # Sample and execute action
        rng_agent, key = jax.random.split(rng_agent)
        action = agent.act(obs, key, explore)
        obs, reward, terminated, truncated, _ = env.step(np.array(action))
        if live:
            print(action, end='\n' if terminated or truncated else '', flush=True)

        # Store interaction
        actions.append(action)
        rewards.append(reward)
        observations.append(obs)
        info['steps'] += 1
        info['episodes'] += terminated or truncated

        # Break if done
        steps_left -= 1
        if steps is None and (terminated or truncated):
            break

    return observations, actions, rewards, info

def rollouts(agent, env, rng_agent, rng_env, n_rollouts, steps=None, explore=True, pb=None):
    """Collect multiple rollouts"""
    observations = []
    actions = []
    rewards = []

    pb = pb or (lambda x: x)
    for _ in pb(range(n_rollouts)):
        os, as_, rs, _ = rollout(agent, env, rng_agent, rng_env, steps, explore)
        observations.append(os)
        actions.append(as_)
        rewards.append(rs)

    return observations, actions, rewards


class BoltzmannPolicy:
    """Boltzmann (softmax) categorical policy"""
    def __init__(self, f, temp=1.):
        self.f = f  # Function of (params, obs) that returns logits (unnormalized scores) for all actions
        self.temp = temp

    def log_pi(self, params, obs, action):
        """Return log-probability/density of action at observation"""
        return jax.nn.log_softmax(self.temp * self.f(params, obs))[action.astype(int)]

    def sample(self, params, obs, rng):
        """Sample action from policy"""
        return jax.random.categorical(rng, self.temp * self.f(params, obs))

    def greedy(self, params, obs):
        """Greedy action"""
        return jnp.argmax(self.f(params, obs))


# ---- ajents/pg.py ----
"""Policy gradient algorithms"""
from functools import partial
import warnings

import jax
import jax.numpy as jnp
import numpy as np
import optax
from tqdm import TqdmExperimentalWarning
from tqdm.rich import trange

# from ajents.base import Agent, rollouts  # scaffolding: inlined above
# from ajents.util import pad_rect  # scaffolding: inlined above


class REINFORCE(Agent):
    """REINFORCE (vanilla policy gradient) agent"""
    def __init__(self, policy, params, causal=True, baseline=True, learning_rate=0.001):
        # Fixed parameters
        self.policy = policy
        self.causal = causal
        self.baseline = baseline

        # Initialize optimizer
        self.optimizer = optax.sgd(-learning_rate)

        # Variables
        self.params = params
        self.opt_state = self.optimizer.init(params)

    @partial(jax.jit, static_argnums=(0, 4))
    def _act(self, params, obs, rng, explore):
        return self.policy.sample(params, obs, rng) if explore else self.policy.greedy(params, obs)

    def act(self, obs, rng, explore=True):
        """Sample action from current policy (or greedy if `explore` is `False`)"""
        return self._act(self.params, obs, rng, explore)

    @partial(jax.jit, static_argnums=(0,))
    def update(self, params, opt_state, observations, actions, rewards):
        """Calculate policy gradient and take one optimization step."""
        def grad_log_policy(obs, action):
            """Gradient (wrt. params) of log-policy at given state-action pair"""
            return jax.lax.cond(jnp.isnan(action).any(),
                lambda: jax.tree_map(lambda x: x*jnp.nan, params),
                lambda: jax.jacobian(self.policy.log_pi)(params, obs, action)
            )

        # Calculate policy gradient from rollouts
        grads = jax.vmap(jax.vmap(grad_log_policy))(observations, actions)
        returns = jnp.nansum(rewards, 1)
        if self.causal:
            # Use rewards to go (account for causality)
            rewards_to_go = returns[:, None] - jnp.nancumsum(rewards, 1) + rewards
            advantage = rewards_to_go - rewards_to_go.mean(0) if self.baseline else rewards_to_go
            grads = jax.tree_map(lambda x: jax.vmap(jax.vmap(jnp.multiply))(x, advantage), grads)
            grads = jax.tree_map(lambda x: jnp.nansum(x, 1), grads)
        else:
            # Use total episode return
            advantage = returns - returns.mean() if self.baseline else returns
            grads = jax.tree_map(lambda x: jnp.nansum(x, 1), grads)
            grads = jax.tree_map(lambda x: jax.vmap(jnp.multiply)(x, advantage), grads)
        grads = jax.tree_map(lambda x: x.mean(0), grads)

        # Update policy
        updates, opt_state = self.optimizer.update(grads, opt_state, params)
        params = optax.apply_updates(params, updates)
        return params, opt_state

    def learn(self, env, rng_agent, rng_env, n_iterations, n_rollouts, threshold=None):
        """Train agent"""
        for j in (pb := trange(n_iterations)):
            # Collect rollouts
            os, as_, rs = rollouts(self, env, rng_agent, rng_env, n_rollouts)
            observations, actions, rewards = (pad_rect(x) for x in (os, as_, rs))
            observations = observations[:, :-1]
            ret = np.nansum(rewards, 1).mean()

            # Monitoring
            pb.write(f"Iteration {j + 1:{len(str(n_iterations))}d}/{n_iterations}. Average return = {ret:f}")

            # Break if threshold is reached
            if threshold is not None and ret >= threshold:
                print("Solved!")
                break

            # Calculate policy gradient and update policy
            self.params, self.opt_state = self.update(self.params, self.opt_state, observations, actions, rewards)

        return j + 1  # pylint: disable=undefined-loop-variable

# Suppress warning from tqdm rich library
warnings.filterwarnings('ignore', category=TqdmExperimentalWarning)


# ---- examples/reinforce_linear.py ----
"""Train affine policy with REINFORCE on CartPole"""
from datetime import datetime

# import gymnasium as gym  # scaffolding: not installed; stand-in below
import jax
import jax.numpy as jnp
import numpy as np
from tqdm.rich import tqdm

# from ajents import REINFORCE, BoltzmannPolicy, rollout, rollouts, pad_rect  # scaffolding: inlined above


# ---- scaffolding: gymnasium is not installed; a minimal CartPole-v1 with gymnasium's dynamics ----
import math  # scaffolding
from types import SimpleNamespace  # scaffolding


class _CartPole:  # scaffolding: gymnasium.envs.classic_control.CartPoleEnv, reset/step only
    def __init__(self, max_episode_steps=500):  # scaffolding
        self.action_space = SimpleNamespace(n=2)  # scaffolding
        self.observation_space = SimpleNamespace(shape=(4,))  # scaffolding
        self.np_random = np.random.default_rng(0)  # scaffolding
        self.max_episode_steps = max_episode_steps  # scaffolding

    def reset(self, seed=None):  # scaffolding
        if seed is not None:  # scaffolding
            self.np_random = np.random.default_rng(seed)  # scaffolding
        self.state = self.np_random.uniform(low=-0.05, high=0.05, size=(4,))  # scaffolding
        self.t = 0  # scaffolding
        return np.array(self.state, dtype=np.float32), {}  # scaffolding

    def step(self, action):  # scaffolding
        x, x_dot, theta, theta_dot = self.state  # scaffolding
        force = 10.0 if int(action) == 1 else -10.0  # scaffolding
        costheta, sintheta = math.cos(theta), math.sin(theta)  # scaffolding
        temp = (force + 0.05 * theta_dot**2 * sintheta) / 1.1  # scaffolding
        thetaacc = (9.8 * sintheta - costheta * temp) / (0.5 * (4.0 / 3.0 - 0.1 * costheta**2 / 1.1))  # scaffolding
        xacc = temp - 0.05 * thetaacc * costheta / 1.1  # scaffolding
        x, x_dot = x + 0.02 * x_dot, x_dot + 0.02 * xacc  # scaffolding
        theta, theta_dot = theta + 0.02 * theta_dot, theta_dot + 0.02 * thetaacc  # scaffolding
        self.state = (x, x_dot, theta, theta_dot)  # scaffolding
        self.t += 1  # scaffolding
        terminated = bool(x < -2.4 or x > 2.4 or theta < -12 * 2 * math.pi / 360 or theta > 12 * 2 * math.pi / 360)  # scaffolding
        truncated = self.t >= self.max_episode_steps  # scaffolding
        return np.array(self.state, dtype=np.float32), 1.0, terminated, truncated, {}  # scaffolding


gym = SimpleNamespace(make=lambda env_name, render_mode=None: _CartPole())  # scaffolding: gym.make('CartPole-v1')


def policy_logits(params, obs):
    """Unnormalized log-policy. Simple policy affine in observation."""
    return params['weights'] @ obs + params['bias']

def init_params(env, rng):
    """Initialize parameters of log-affine policy."""
    key1, key2 = jax.random.split(rng)
    params = {'weights': 0.01 * jax.random.normal(key1, (env.action_space.n, env.observation_space.shape[0])),
              'bias': 0.01 * jax.random.normal(key2, (env.action_space.n,))}
    return params

def main(test=True, view=True):
    """Train affine policy with REINFORCE on CartPole"""
    jax.config.update('jax_platforms', 'cpu')
    seed = 42
    rng = jax.random.PRNGKey(seed)
    np_rng = np.random.default_rng(seed)

    # Initialize environment
    env_name = 'CartPole-v1'
    env = gym.make(env_name)

    # Initialize policy
    rng, key = jax.random.split(rng)
    policy = BoltzmannPolicy(policy_logits, temp=2.)
    params = init_params(env, key)

    # Initialize agent
    agent = REINFORCE(policy, params)

    # Train agent
    start = datetime.now()
    rng, key = jax.random.split(rng)
    agent.learn(env, key, np_rng, 6, 10, threshold=500)  # scaffolding: 6 iterations instead of 1000
    print(f"Training finished after {datetime.now() - start}!")

    # Test agent
    if test:
        print("Testing policy...")
        rng, key = jax.random.split(rng)
        _, _, rewards = rollouts(agent, env, key, np_rng, 500, explore=False, pb=tqdm)
        rewards = pad_rect(rewards)
        print(f"Average test return: {jnp.nansum(rewards, 1).mean()}")

    # Watch final policy in action
    print("Finished. Press '^C' to exit.")
    env = gym.make(env_name, render_mode='human')
    while view:
        rng, key = jax.random.split(rng)
        _, _, rewards, _ = rollout(agent, env, key, np_rng, explore=False, live=True)
        print(f"Episode return: {sum(rewards)}")

if __name__ == '__main__':
    try:  # scaffolding
        main(test=False, view=False)  # scaffolding: no 500-episode test, no rendering window
        _report({"jit(update)"}, 6)  # scaffolding: update is called once per iteration
    except Exception as e:  # scaffolding
        print(f"ERROR {type(e).__name__}")  # scaffolding
