# source: https://github.com/hamishs/JAX-RL/blob/1e304ed19cc9d61402ddbeb99a3e707fe4b87161/src/jax_rl/algorithms/dqn.py
# expect: none
# runtime: COMPILES 4 CALLS 190
# why: the same @partial(jax.jit, static_argnums=0) loss_fn pattern as the repo's PPO, but DQN samples fixed batches of 32 float32 rows from its replay buffer, and the static self only supplies gamma and the apply function, which never change: each agent's loss compiles once (jvp + transpose).
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


# ---- scaffolding: gym is not installed; a CartPole-shaped stand-in with the API this code expects ----
import numpy as _np  # scaffolding


class _CartPoleStandIn:  # scaffolding: 4-d observations, 2 actions, episodes of 8-20 steps; reset -> (s, info), step -> 4-tuple as dqn.py unpacks
    _rs = _np.random.RandomState(0)  # scaffolding
    def reset(self):  # scaffolding
        self._t, self._len = 0, self._rs.randint(8, 21)  # scaffolding
        return self._rs.uniform(-0.05, 0.05, 4).astype(_np.float32), {}  # scaffolding
    def step(self, a):  # scaffolding
        self._t += 1  # scaffolding
        return self._rs.uniform(-0.05, 0.05, 4).astype(_np.float32), 1.0, self._t >= self._len, {}  # scaffolding


class gym:  # scaffolding
    make = staticmethod(lambda name: _CartPoleStandIn())  # scaffolding


# ---- src/jax_rl/utils.py ----
from typing import NamedTuple

import haiku as hk
import jax
import jax.numpy as jnp


class Transition(NamedTuple):
    s: list  # state
    a: int  # action
    r: float  # reward
    d: bool  # done
    s_next: list  # next state


def entropy(dist, axis=-1):
    return -(jnp.log(dist) * dist).sum(axis=axis)


def lstm_initial_state(units, batch_size=None):
    """Computes the intial hidden state of an LSTM cell using
    given unit size and batch size."""
    state = hk.LSTMState(hidden=jnp.zeros([units]), cell=jnp.zeros([units]))
    if batch_size is not None:
        state = jax.tree_map(
            lambda x: jnp.broadcast_to(x, (batch_size,) + x.shape), state
        )
    return state


class GaussianNoise:
    def __init__(self, mean=0.0, sd=1.0):

        self.mean = mean
        self.sd = sd
        self.t = 0

    def __call__(self, key):
        mu = self.mean(self.t) if callable(self.mean) else self.mean
        sigma = self.sd(self.t) if callable(self.sd) else self.sd

        self.t += 1

        return (jax.random.normal(key) + mu) * sigma

# ---- src/jax_rl/algorithms/base_agent.py ----
from abc import ABC, abstractmethod

import haiku as hk


class BaseAgent(ABC):
    def __init__(self, key, n_states, n_actions, gamma):
        self.prng = hk.PRNGSequence(key)
        self.n_states = n_states
        self.n_actions = n_actions
        self.gamma = gamma

    @abstractmethod
    def train(self):
        pass

    @abstractmethod
    def act(self, s):
        pass

# ---- src/jax_rl/buffer.py ----
import random
from abc import ABC, abstractmethod
from collections import deque

import jax.numpy as jnp
import numpy as np

# from jax_rl.utils import Transition  # scaffolding: defined above in this file


class Buffer(ABC):
    def __init__(self, buffer_size):
        self.buffer_size = buffer_size
        self.reset()

    @abstractmethod
    def update(self, transition):
        pass

    @abstractmethod
    def __len__(self):
        pass

    @abstractmethod
    def reset(self):
        pass


class ExperienceReplay(Buffer):
    """Experience replay buffer to store past experience."""

    def __init__(self, buffer_size, action_dtype=jnp.int32):
        """
        buffer_size : int - max number of transitions to store.
        """
        super(ExperienceReplay, self).__init__(buffer_size)
        self.action_dtype = action_dtype

    def update(self, transition):
        """Update the buffer with a transition."""
        self.buffer.append(transition)
        if len(self.buffer) > self.buffer_size:
            self.buffer.pop(0)

    def __len__(self):
        return len(self.buffer)

    def reset(self):
        self.buffer = []

    def sample(self, n):
        """Sample a batch of n transitions. Returns all as jax.numpy arrays."""
        batch = Transition(*zip(*random.sample(self.buffer, n)))

        s = jnp.array(batch.s, dtype=jnp.float32)
        a = jnp.array(batch.a, dtype=self.action_dtype)
        r = jnp.array(batch.r, dtype=jnp.float32)
        d = jnp.array(batch.d, dtype=jnp.float32)
        s_next = jnp.array(batch.s_next, dtype=jnp.float32)

        return s, a, r, d, s_next


class TrajectoryBuffer(Buffer):
    """Buffer to store trajectories in order and store advantages."""

    def __init__(self, buffer_size):
        super(TrajectoryBuffer, self).__init__(buffer_size)

    def reset(self):
        self.state = []
        self.action = []
        self.reward = []
        self.done = []
        self.state_next = []
        self.probs = []
        self.advs = []
        self.tds = jnp.array([])
        self.n = 0

    def __len__(self):
        return len(self.state)

    def update(self, s, a, r, d, s_next, pi):
        self.state.append(s)
        self.action.append([a])
        self.reward.append([r])
        self.done.append([d])
        self.state_next.append(s_next)
        self.probs.append(pi)

        if self.n < self.buffer_size:
            self.n += 1
        else:
            self.state.pop(0)
            self.action.pop(0)
            self.reward.pop(0)
            self.done.pop(0)
            self.state_next.pop(0)
            self.probs.pop(0)
            self.advs.pop(0)
            self.tds = self.tds[1:]

    @property
    def data(self):
        """Return memory as arrays."""
        s = jnp.array(self.state)
        a = jnp.array(self.action)
        r = jnp.array(self.reward)
        d = jnp.array(self.done)
        s_next = jnp.array(self.state_next)
        pi = jnp.array(self.probs)
        advs = jnp.array(self.advs)
        return s, a, r, d, s_next, pi, advs, self.tds


class EpisodicBuffer(Buffer):
    """Buffer to store full episodes at a time."""

    def __init__(self, buffer_size, max_len=50):
        super(EpisodicBuffer, self).__init__(buffer_size)
        self.max_len = max_len

    def reset(self):
        self.buffer = deque(maxlen=self.buffer_size)

    def __len__(self):
        return len(self.buffer)

    def start_episode(self):
        self.buffer.append([])

    def update(self, s, a, r, d):
        n = len(self.buffer) - 1
        if len(self.buffer[n]) < self.max_len:
            self.buffer[n].append([s, a, r, d])

    def sample(self):
        idx = np.random.randint(0, len(self.buffer) - 2)  # exclude incomplete
        batch = self.buffer[idx]
        return tuple(zip(*batch))


# ---- src/jax_rl/policies.py ----
from abc import ABC, abstractmethod

import jax
import jax.numpy as jnp


class Policy(ABC):
    """Policy base class."""

    def __init__(self):
        pass

    def __call__(self, *args, **kwargs):
        return self.call(*args, **kwargs)

    @abstractmethod
    def call(self, key, q_values, exploration=True, return_distribution=False):
        pass


class EpsilonGreedy(Policy):
    """Greedy/random policy with probability epsilon/1-epsilon."""

    def __init__(self, epsilon):
        super(EpsilonGreedy, self).__init__()
        """ epsilon : float or callable giving exploration rate."""
        self.epsilon = epsilon
        self.t = 0  # step counter

    def call(self, key, q_values, exploration=True, return_distribution=False):
        """
        key : jax.random.PRNGKey.
        state : jnp.array (1, n_states) - current state.
        n_actions : int - number of actions.
        q_values : (n_actions) - estimated q-values for the current state.
        exploration : bool = True - wether to allow exploration or to be greedy.
        return distribution : bool = False - whether to return the distribution
        over actions.
        """
        n_actions = q_values.shape[0]
        if return_distribution:
            dist = (
                jnp.ones(
                    n_actions,
                )
                * self.epsilon
                / n_actions
            )
            return dist.at[jnp.argmax(q_values)].add(1.0 - self.epsilon)
        self.t += 1
        eps = self.epsilon(self.t) if callable(self.epsilon) else self.epsilon
        if exploration and (jax.random.uniform(key, shape=(1,))[0] > 1 - eps):
            idx = jax.random.randint(key, shape=(1,), minval=0, maxval=n_actions)
            return int(idx[0])
        return int(jnp.argmax(q_values))


class BoltzmannPolicy(Policy):
    """Exploration with a Boltzmann distribution over the Q-values with temperature."""

    def __init__(self, T):
        """
        T : float or callable giving temperature parameter.
        """
        super(BoltzmannPolicy, self).__init__()
        self.T = T
        self.t = 0  # step counter

    def call(self, key, q_values, exploration=True, return_distribution=False):
        """
        key : jax.random.PRNGKey.
        state : jnp.array (1, n_states) - current state.
        q_values : (n_actions) - estimated q-values for the current state.
        exploration : bool = True - wether to allow exploration or to be greedy.
        return distribution : bool = False - wether to return the distribution over
        actions.
        """
        n_actions = q_values.shape[0]
        T = self.T(self.t) if callable(self.T) else self.T
        if return_distribution:
            prefs = jnp.exp(q_values / T)
            prefs /= prefs.sum()
            return prefs
        else:
            self.t += 1
            if exploration:
                prefs = jnp.exp(q_values / T)
                prefs /= prefs.sum()
                return int(jax.random.choice(key, n_actions, p=prefs))
            else:
                return int(jnp.argmax(q_values))

# ---- src/jax_rl/algorithms/dqn.py ----
from functools import partial

import haiku as hk
import jax
import jax.numpy as jnp
import numpy as np
import optax

# from jax_rl.algorithms import BaseAgent  # scaffolding: defined above in this file
# from jax_rl.buffer import ExperienceReplay  # scaffolding: defined above in this file
# from jax_rl.utils import Transition  # scaffolding: defined above in this file


class DQN(BaseAgent):
    """Deep Q-network"""

    def __init__(self, key, n_states, n_actions, gamma, buffer_size, policy, model, lr):
        """
        model must take sequential inputs and a hidden state.
        init_state must provide the initial state for a given batch_size.
        """
        super(DQN, self).__init__(key, n_states, n_actions, gamma)

        self.buffer = ExperienceReplay(buffer_size)
        self.policy = policy

        # Q-network and parameters
        self.params = model.init(next(self.prng), jnp.ones((1, n_states)))
        self.update_target()
        self.q_network = model.apply

        # optimiser
        self.opt_update, self.opt_state = self.init_optimiser(lr, self.params)

    def act(self, s, exploration=True):
        """Get an action from the q-network given the state.
        s - torch.FloatTensor shape (1, 1, n_states) current state
        exploration - bool - wether to choose greedy action or use epsilon greedy.
        Returns : action - int
        """
        assert s.shape == (1, self.n_states)
        q_values = self.q_network(self.params, s)

        return self.policy(next(self.prng), q_values, exploration)

    def train(self, batch_size):
        """Train the agent on a single episode. Uses the double q-learning target.
        Returns: td loss - float."""
        if len(self.buffer.buffer) > batch_size:
            s, a, r, d, s_next = self.buffer.sample(batch_size)

            # compute gradients
            loss, gradients = jax.value_and_grad(self.loss_fn)(
                self.params, self.target_params, s, a, r, d, s_next
            )

            # apply gradients
            updates, self.opt_state = self.opt_update(
                gradients, self.opt_state, self.params
            )
            self.params = optax.apply_updates(self.params, updates)

            return loss

    def init_optimiser(self, lr, params):
        opt_init, opt_update = optax.adam(lr)
        opt_state = opt_init(params)
        return opt_update, opt_state

    @partial(jax.jit, static_argnums=0)
    def loss_fn(self, params, target_params, s, a, r, d, s_next):
        # td targets
        y = r + self.gamma * self.q_network(target_params, s_next).max(-1) * (1.0 - d)

        # q-values
        q_values = self.q_network(params, s)
        q_values = q_values[jnp.arange(a.shape[0]), a]

        return jnp.square((q_values - y)).mean()

    def update_target(self):
        """Update the weights of the target network."""
        self.target_params = hk.data_structures.to_immutable_dict(self.params)

    def update_buffer(self, transition):
        """Update the buffer with a transition."""
        self.buffer.update(transition)

    def train_on_env(self, env, episodes, batch_size, target_freq, verbose=None):
        """Train on a given environment.
        env : environment with methods reset and step e.g. gym CartPole-v1
        episodes : number of training episodes
        update_freq : frequency of training episodes
        train_steps : number of gradient descent steps each training epsiode
        verbose : wether to print current rewards. Given as int refering to print
        frequency.
        """
        ep_rewards = []
        losses = []
        for episode in range(episodes):
            s, _ = env.reset()
            d = False
            ep_reward = 0.0
            while not d:
                a = self.act(jnp.array(s)[jnp.newaxis, :], exploration=True)
                s_next, r, d, _ = env.step(a)
                ep_reward += r
                self.update_buffer(Transition(s=s, a=a, r=r, d=d, s_next=s_next))
                loss = self.train(batch_size)
                if loss is not None:
                    losses.append(loss)
                s = s_next

            # ep end
            ep_rewards.append(ep_reward)

            if episode % target_freq == 0:
                self.update_target()

            if verbose is not None:
                if episode % verbose == 0:
                    print(
                        "Episode {} Reward {:.4f} Loss {:.4f}".format(
                            episode,
                            np.mean(ep_rewards[-verbose:]),
                            np.mean(losses[-verbose:]),
                        )
                    )  # need to * by ep-length here

        return ep_rewards, losses


class DDQN(DQN):
    """DQN with double Q-learning. Overwrites the loss function with the DDQN target."""

    def __init__(self, *args):
        super(DDQN, self).__init__(*args)

    @partial(jax.jit, static_argnums=0)
    def loss_fn(self, params, target_params, s, a, r, d, s_next):
        # td targets
        a_targ = jnp.argmax(
            jax.lax.stop_gradient(self.q_network(params, s_next)), axis=-1
        )
        q_targ = self.q_network(target_params, s_next)[
            jnp.arange(a_targ.shape[0]), a_targ
        ]
        y = r + self.gamma * q_targ * (1.0 - d)

        # q-values
        q_values = self.q_network(params, s)
        q_values = q_values[jnp.arange(a.shape[0]), a]

        return jnp.square((q_values - y)).mean()

# ---- tests/algorithms/test_dqn.py ----
"""
Test PPO algorithm by training for 20 epidoes.
"""

# import gym  # scaffolding: stand-in above
import haiku as hk

# from jax_rl.algorithms import DDQN, DQN  # scaffolding: defined above in this file
# from jax_rl.policies import EpsilonGreedy  # scaffolding: defined above in this file

env = gym.make("CartPole-v0")

policy = EpsilonGreedy(0.1)


def forward(s):
    mlp = hk.nets.MLP([32, 32, 2])
    return mlp(s)


model = hk.without_apply_rng(hk.transform(forward))

# test DQN
dqn = DQN(0, 4, 2, 0.99, 500, policy, model, 1e-3)
try:  # scaffolding
    ep_rewards, losses = dqn.train_on_env(env, 10, 32, 20, verbose=1)
    _n_dqn = len(losses)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
    raise SystemExit  # scaffolding

# test DDQN
ddqn = DDQN(0, 4, 2, 0.99, 500, policy, model, 1e-3)
try:  # scaffolding
    ep_rewards, losses = ddqn.train_on_env(env, 10, 32, 20, verbose=1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
    raise SystemExit  # scaffolding
print([n for n in _COMPILED if "loss" in n], _n_dqn, len(losses))  # scaffolding
_report({"jit(loss_fn)"}, _n_dqn + len(losses))  # scaffolding: DQN and DDQN each jit their own loss_fn (one agent each)
