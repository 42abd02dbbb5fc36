# source: https://github.com/hamishs/JAX-RL/blob/1e304ed19cc9d61402ddbeb99a3e707fe4b87161/src/jax_rl/algorithms/ppo.py
# expect: shape-churn at line 334
# runtime: COMPILES 60 CALLS 90
# why: PPO.train differentiates the jitted loss_fn on the whole TrajectoryBuffer, which grows by one episode before every update (buffer_size 450), so every update has a new leading length and loss_fn compiles again (2 compiles, jvp and transpose, per new length).
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


# ---- scaffolding: gym and matplotlib are not installed; a CartPole-shaped stand-in ----
import numpy as _np  # scaffolding


class _Space:  # scaffolding
    def __init__(self, n=None, shape=None): self.n, self.shape = n, shape  # scaffolding


class _CartPoleStandIn:  # scaffolding: 4-d observations, 2 actions, episodes of 8-20 steps, gym>=0.26 API
    action_space, observation_space = _Space(n=2, shape=()), _Space(shape=(4,))  # scaffolding
    _rs = _np.random.RandomState(0)  # scaffolding
    def reset(self):  # scaffolding
        self._t, self._len = 0, self._rs.randint(8, 21)  # scaffolding
        return self._rs.uniform(-0.05, 0.05, 4).astype(_np.float32), {}  # scaffolding
    def step(self, a):  # scaffolding
        self._t += 1  # scaffolding
        return self._rs.uniform(-0.05, 0.05, 4).astype(_np.float32), 1.0, self._t >= self._len, False, {}  # scaffolding


class gym:  # scaffolding
    make = staticmethod(lambda name: _CartPoleStandIn())  # scaffolding


class plt:  # scaffolding: matplotlib stand-in
    plot = title = show = staticmethod(lambda *a, **k: None)  # scaffolding


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


# ---- src/jax_rl/algorithms/ppo.py ----
from functools import partial

import haiku as hk
import jax
import jax.numpy as jnp
import numpy as np
import optax

# from jax_rl.algorithms import BaseAgent  # scaffolding: defined above in this file
# from jax_rl.buffer import TrajectoryBuffer  # scaffolding: defined above in this file
# from jax_rl.utils import entropy  # scaffolding: defined above in this file


class PPO(BaseAgent):
    """Proximal Policy Optimisation for discrete action spaces."""

    def __init__(
        self,
        key,
        n_states,
        n_actions,
        gamma,
        lmda,
        epsilon,
        v_weight,
        e_weight,
        buffer_size,
        policy,
        value,
        lr_policy,
        lr_value,
    ):
        super(PPO, self).__init__(key, n_states, n_actions, gamma)

        self.lmda = lmda
        self.epsilon = epsilon
        self.v_weight = v_weight
        self.e_weight = e_weight

        self.buffer = TrajectoryBuffer(buffer_size)

        # initiate networks and optimisers
        self.policy_params = policy.init(next(self.prng), jnp.ones([1, n_states]))
        self.policy = policy.apply
        self.policy_update, self.policy_opt_state = self.init_optimiser(
            lr_policy, self.policy_params
        )

        self.value_params = value.init(next(self.prng), jnp.ones([1, n_states]))
        self.value = value.apply
        self.value_update, self.value_opt_state = self.init_optimiser(
            lr_value, self.value_params
        )

    def act(self, s, return_prob=False):
        # s : (1, n_states)
        p = self.policy(self.policy_params, s).squeeze()
        a = int(jax.random.choice(next(self.prng), self.n_actions, p=p))
        if return_prob:
            return a, p[a]
        return a

    def train(self):
        """Train the algorithm on the current buffer."""
        s, a, r, d, s_next, pi_old, advs, tds = self.buffer.data
        advs = advs.squeeze()

        # loss and gradients
        loss, (policy_grads, value_grads) = jax.value_and_grad(
            self.loss_fn, argnums=(0, 1)
        )(self.policy_params, self.value_params, s, a, r, d, s_next, pi_old, advs, tds)

        # apply gradients
        p_updates, self.policy_opt_state = self.policy_update(
            policy_grads, self.policy_opt_state, self.policy_params
        )
        self.policy_params = optax.apply_updates(self.policy_params, p_updates)

        v_updates, self.value_opt_state = self.value_update(
            value_grads, self.value_opt_state, self.value_params
        )
        self.value_params = optax.apply_updates(self.value_params, v_updates)

        return loss

    @partial(jax.jit, static_argnums=0)
    def loss_fn(
        self, policy_params, value_params, s, a, r, d, s_next, pi_old, advs, tds
    ):
        # actor loss
        pi_new = self.policy(policy_params, s)
        ratio = jnp.exp(
            jnp.log(pi_new[jnp.arange(a.shape[0]), a.squeeze()]) - jnp.log(pi_old)
        )
        actor_loss = jnp.minimum(
            ratio * advs, jnp.clip(ratio, 1 - self.epsilon, 1 + self.epsilon) * advs
        )

        # entropy
        e = entropy(pi_new, axis=-1)

        # critic loss
        v_loss = 0.5 * jnp.square((self.value(value_params, s) - tds).squeeze())

        # compute loss and update
        loss = -actor_loss + self.v_weight * v_loss - self.e_weight * e
        return loss.mean()

    def update_buffer(self, s, a, r, d, s_next, pi):
        self.buffer.update(s, a, r, d, s_next, pi)

    def compute_advantages(self, l):
        """Compute advantage estimates for the previous l steps of the buffer."""
        s = jnp.array(self.buffer.state[-l:])  # (l, n_states)
        r = jnp.array(self.buffer.reward[-l:])  # (l, 1)
        s_next = jnp.array(self.buffer.state_next[-l:])  # (l, n_states)
        d = jnp.array(self.buffer.done[-l:])  # (l, 1)

        td_target = r + self.gamma * self.value(self.value_params, s_next) * (1 - d)
        delta = (td_target - self.value(self.value_params, s)).squeeze()  # (l,)

        # calculate advantage
        advantages = []
        adv = 0.0
        for d in delta[::-1]:
            adv = self.gamma * self.lmda * adv + d
            advantages.append([adv])
        advantages.reverse()  # (l, 1)

        # update tds
        if self.buffer.tds.shape == (0,):
            self.buffer.tds = td_target
        else:
            self.buffer.tds = jnp.vstack((self.buffer.tds, td_target))
        self.buffer.advs += advantages

    def init_optimiser(self, lr, params):
        opt_init, opt_update = optax.adam(lr)
        opt_state = opt_init(params)
        return opt_update, opt_state

    def train_on_env(self, env, episodes, update_freq, train_steps, verbose=None):
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
            ep_length = 0
            ep_reward = 0.0
            while not d:
                a, pi = self.act(jnp.array([s]), return_prob=True)
                out = env.step(a)
                s_next, r, d, _, _ = out
                ep_reward += r
                self.update_buffer(s, a, r, d, s_next, pi)
                s = s_next
                ep_length += 1

            # ep end
            self.compute_advantages(ep_length)
            ep_rewards.append(ep_reward)
            if episode % update_freq == 0:
                for _ in range(train_steps):
                    loss = self.train()
                    losses.append(loss)

            if verbose is not None:
                if episode % verbose == 0:
                    print(
                        "Episode {} Reward {:.4f} Loss {:.4f}".format(
                            episode,
                            np.mean(ep_rewards[-verbose:]),
                            np.mean(losses[-verbose * train_steps :]),
                        )
                    )

        return ep_rewards, losses


# ---- examples/ppo_cartpole.py ----
# try:  # scaffolding: matplotlib not installed, stand-in above
#     import matplotlib.pyplot as plt
# except ImportError:
#     raise ImportError("This example requires matplotlib")

# import gym  # scaffolding: stand-in above
import haiku as hk
import jax

# from jax_rl.algorithms import PPO  # scaffolding: defined above in this file

env = gym.make("CartPole-v0")


# define MLPs for the value function and policy
def forward(s):
    mlp = hk.nets.MLP([16, 32, 2])
    return jax.nn.softmax(mlp(s))


policy = hk.without_apply_rng(hk.transform(forward))


def forward(s):
    mlp = hk.nets.MLP([16, 32, 1])
    return mlp(s)


value = hk.without_apply_rng(hk.transform(forward))

seed = 2  # JAX random seed

# env parameters
n_states = 4
n_actions = 2

# hyperparameters
gamma = 0.99  # discount rate
lmda = 0.95  # advantage decay
epsilon = 0.2  # max clip
v_weight = 0.9  # value loss weight
e_weight = 0.01  # entropy loss weight
buffer_size = 450  # max number of transitions to store

# training parameters
lr_policy = 9e-3
lr_value = 9e-3
episodes = 30  # scaffolding: 180 in the example
train_freq = 1
train_steps = 3

# define the algorithm and train on CartPole
ppo = PPO(
    seed,
    n_states,
    n_actions,
    gamma,
    lmda,
    epsilon,
    v_weight,
    e_weight,
    buffer_size,
    policy,
    value,
    lr_policy,
    lr_value,
)
try:  # scaffolding
    ep_rewards, losses = ppo.train_on_env(env, episodes, train_freq, train_steps, verbose=1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
    raise SystemExit  # scaffolding

plt.plot(ep_rewards)
plt.title("Episodic reward of PPO on CartPole")
plt.show()
print(sorted(set(_COMPILED)), len(ppo.buffer))  # scaffolding
_report({"jit(loss_fn)"}, len(losses))  # scaffolding
