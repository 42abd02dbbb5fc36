# source: https://github.com/dogeplusplus/sac-walker/commit/aff50f3507f60bac67d9eef9a3103b8828b2aa5b
# expect: none
# runtime: COMPILES 4 CALLS 16
# why: after the commit eval_q_loss and eval_pi_loss are free jitted functions that take pi_state, q_state and q_state_targ as arguments (only floats/ints static), so each update sees the current parameters; they compile twice each under value_and_grad (4 compiles) for 16 calls, and the count does not grow.
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



import types  # scaffolding
import numpy as np  # scaffolding
import jax  # scaffolding
np.bool = bool  # scaffolding: np.bool (used by ReplayBuffer) was removed from numpy
jax.tree_multimap = jax.tree_util.tree_map  # scaffolding: jax.tree_multimap was removed from jax


class _Box:  # scaffolding: gym.spaces.Box stand-in
    def __init__(self, shape, rs):
        self.shape, self._rs = shape, rs

    def sample(self):
        return self._rs.uniform(-1, 1, self.shape).astype(np.float32)


class _MountainCarContinuous:  # scaffolding: gym MountainCarContinuous-v0 stand-in, random transitions, 6-step episodes
    def __init__(self):
        rs = np.random.RandomState(0)
        self._rs, self._t = rs, 0
        self.observation_space, self.action_space = _Box((2,), rs), _Box((1,), rs)

    def reset(self):
        self._t = 0
        return self._rs.randn(2).astype(np.float32)

    def step(self, action):
        self._t += 1
        return self._rs.randn(2).astype(np.float32), float(self._rs.randn()), self._t >= 6, {}

    def render(self):
        pass


gym = types.SimpleNamespace(make=lambda name: _MountainCarContinuous())  # scaffolding


# models/mlp.py after the commit
import jax.numpy as jnp

from jax import random
from flax import linen as nn
from jax.scipy.stats import norm


def relu(x):
    return jnp.maximum(0, x)


def softplus(x, beta=1, threshold=20):
    softp = 1.0 / beta * jnp.log(1 + jnp.exp(beta * x))
    return jnp.where(beta * x > threshold, x, softp)


class MLPActor(nn.Module):
    act_dim: int
    act_limit: float = 10
    log_min_std: float = -20
    log_max_std: float = 2

    def setup(self):
        self.layers = [
            nn.Dense(256),
            nn.Dense(256)
        ]
        self.mu_layer = nn.Dense(self.act_dim)
        self.log_std_layer = nn.Dense(self.act_dim)

    def __call__(self, x, key, deterministic=False, with_logprob=True):
        for layer in self.layers:
            x = layer(x)
            x = relu(x)

        mu = self.mu_layer(x)
        log_std = self.log_std_layer(x)
        log_std = jnp.clip(log_std, self.log_min_std, self.log_max_std)
        std = jnp.exp(log_std)

        prob = mu
        if not deterministic:
            prob += std * random.normal(key)

        logprob = None
        if with_logprob:
            logprob = jnp.sum(norm.logpdf(prob, mu, std), axis=-1)
            logprob -= 2 * jnp.sum(jnp.log(2) - prob - softplus(-2*prob), axis=-1)
        pi_action = jnp.tanh(prob) * self.act_limit

        return (pi_action, logprob)


class QFunction(nn.Module):
    def setup(self):
        self.layers = [
            nn.Dense(256),
            nn.Dense(256),
            nn.Dense(1)
        ]

    def __call__(self, x):
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if i != len(self.layers) - 1:
                x = relu(x)
        return x

class DoubleCritic(nn.Module):
    def setup(self):
        self.q1 = QFunction()
        self.q2 = QFunction()

    def __call__(self, x):
        return self.q1(x), self.q2(x)



# sac/buffer.py
import numpy as np

from random import sample
from dataclasses import dataclass

@dataclass(frozen=True)
class Batch:
    states: np.ndarray
    actions: np.ndarray
    rewards: np.ndarray
    next_states: np.ndarray
    done: np.ndarray


class ReplayBuffer(object):
    def __init__(self, size, obs_dim, act_dim):
        self.state = np.zeros((size, obs_dim), dtype=np.float32)
        self.actions = np.zeros((size, act_dim), dtype=np.float32)
        self.rewards = np.zeros(size, dtype=np.float32)
        self.next_state = np.zeros((size, obs_dim), dtype=np.float32)
        self.done = np.zeros(size, dtype=np.bool)

        self.ptr = 0
        self.size = size

    def store(self, obs, act, rew, next_obs, done):
        assert self.ptr < self.size
        self.state[self.ptr] = obs
        self.actions[self.ptr] = act
        self.rewards[self.ptr] = rew
        self.next_state[self.ptr] = next_obs
        self.done[self.ptr] = done
        self.ptr += 1

    def sample(self, batch_size):
        assert self.ptr >= batch_size, "Number of samples less than batch size."
        assert self.ptr <= self.size, "Number of samples must be at most buffer size."

        idx = sample(range(self.ptr), batch_size)

        return Batch(
            self.state[idx],
            self.actions[idx],
            self.rewards[idx],
            self.next_state[idx],
            self.done[idx]
        )



# sac/algorithm.py after the commit
import sys
import jax
# import gym  # scaffolding: stand-in above
import tqdm
import optax
import jax.numpy as jnp

from copy import deepcopy
from functools import partial
from dataclasses import dataclass
from haiku import PRNGSequence

sys.path.append(".")
# from sac.buffer import ReplayBuffer  # scaffolding: defined above
# from models.mlp import MLPActor, DoubleCritic  # scaffolding: defined above


@dataclass(frozen=True)
class TrainingParameters:
    epochs: int
    steps_per_epoch: int
    batch_size: int
    start_steps: int
    update_after: int
    update_every: int
    learning_rate: float
    alpha: float
    gamma: float
    polyak: float
    buffer_size: int = int(1e6)
    max_ep_len: int = 4000


@jax.jit
def apply_double_q(q_state, state_action):
    q1, q2= DoubleCritic().apply(q_state, state_action)
    return q1, q2


@partial(jax.jit, static_argnums=(3, 4))
def apply_actor(pi_state, state, key, act_limit, act_dim):
    actor_fn = MLPActor(act_dim, act_limit)
    action, logp_ac = actor_fn.apply(pi_state, state, key=key)
    return action, logp_ac


@partial(jax.jit, static_argnums=(9, 10, 11, 12))
def eval_q_loss(pi_state, q_state, q_state_targ, s, a, r, s2, d, key, alpha, gamma, act_limit, act_dim):
    sa = jnp.concatenate([s, a], axis=-1)
    q1, q2 = apply_double_q(q_state, sa)

    a2, logp_ac = apply_actor(pi_state, s2, key, act_limit, act_dim)
    sa2 = jnp.concatenate([s2, a2], axis=-1)

    q1_target, q2_target = apply_double_q(q_state_targ, sa2)
    q_target = jnp.where(q1_target < q2_target, q1_target, q2_target)

    backup = r + gamma * (1 - d) * (
        q_target - alpha * logp_ac
    )

    loss_q1 = jnp.mean((q1 - backup) ** 2)
    loss_q2 = jnp.mean((q2 - backup) ** 2)
    loss_q = loss_q1 + loss_q2

    return loss_q


def update_targets(source, target, polyak):
    new_target = jax.tree_multimap(
        lambda x, y: polyak * y + (1 - polyak) * x,
        source,
        target
    )

    return new_target

@partial(jax.jit, static_argnums=(5, 6, 7))
def eval_pi_loss(
    pi_state,
    q_state,
    s,
    s2,
    key,
    alpha,
    act_limit,
    act_dim,
):
    pi, logp_pi = apply_actor(pi_state, s2, key, act_limit, act_dim)
    sa2 = jnp.concatenate([s, pi], axis=-1)
    q1, q2 = apply_double_q(q_state, sa2)

    q_pi = jnp.min(jnp.concatenate([q1, q2], axis=-1), axis=-1)
    loss_pi = jnp.mean(alpha * logp_pi - q_pi)

    return loss_pi


class SAC(object):
    def __init__(self, env, params: TrainingParameters):
        self.env = env
        self.buffer = ReplayBuffer(
            params.buffer_size,
            env.observation_space.shape[0],
            env.action_space.shape[0],
        )
        self.params = params


    def train(self):
        state = self.env.reset()
        params = self.params

        step = 0
        act_limit = 10

        act_dim = self.env.action_space.shape[0]
        obs_dim = self.env.observation_space.shape[0]

        actor_init = jnp.ones((params.batch_size, obs_dim))
        critic_init = jnp.ones((params.batch_size, obs_dim + act_dim))

        rng = PRNGSequence(42)

        pi_state = MLPActor(act_dim, act_limit).init(jax.random.PRNGKey(0), actor_init, key=next(rng))
        q_state = DoubleCritic().init(jax.random.PRNGKey(1), critic_init)
        q_state_targ = deepcopy(q_state)

        pi_opt = optax.adam(params.learning_rate)
        q_opt = optax.adam(params.learning_rate)

        q_opt_state = q_opt.init(q_state)
        pi_opt_state = pi_opt.init(pi_state)

        pi_loss_grad_fn = jax.value_and_grad(eval_pi_loss, allow_int=True, argnums=(0, 1, 2, 3, 4))
        q_loss_grad_fn = jax.value_and_grad(eval_q_loss, allow_int=True, argnums=(0,1,2,3,4,5,6,7,8))

        for e in range(params.epochs):
            ep_ret = 0
            ep_len = 0

            pbar = tqdm.tqdm(
                range(params.steps_per_epoch),
                desc=f"Epoch {e+1:>4}",
                bar_format="{l_bar}{bar:10}{r_bar}{bar:-10b}"
            )

            cumulative_metrics = {
                "q_loss": 0,
                "pi_loss": 0,
            }

            for i in pbar:
                if step < params.start_steps:
                    action = self.env.action_space.sample()
                else:
                    action = apply_actor(pi_state, state, next(rng), act_limit, act_dim)

                next_state, reward, done, _ = self.env.step(action)
                self.env.render()
                ep_len += 1
                ep_ret += reward

                self.buffer.store(state, action, reward, next_state, done)
                state = next_state

                timeout = ep_len == params.max_ep_len
                terminal = done or timeout
                epoch_ended = i % params.steps_per_epoch == params.steps_per_epoch - 1

                if terminal or epoch_ended:
                    state = self.env.reset()
                    ep_ret = 0
                    ep_len = 0

                if step > params.update_after and step % params.update_every == 0:
                    for _ in range(params.update_every):
                        samples = self.buffer.sample(params.batch_size)

                        q_loss, grad_q = q_loss_grad_fn(
                            pi_state,
                            q_state,
                            q_state_targ,
                            samples.states,
                            samples.actions,
                            samples.rewards,
                            samples.next_states,
                            samples.done,
                            next(rng),
                            params.alpha,
                            params.gamma,
                            act_limit,
                            act_dim,
                        )
                        updates, q_opt_state = q_opt.update(grad_q[1], q_opt_state, q_state)
                        q_state = optax.apply_updates(q_state, updates)

                        pi_loss, grad_pi = pi_loss_grad_fn(
                            pi_state,
                            q_state,
                            samples.states,
                            samples.next_states,
                            next(rng),
                            params.alpha,
                            act_limit,
                            act_dim,
                        )
                        updates, pi_opt_state = pi_opt.update(grad_pi[0], pi_opt_state, pi_state)
                        pi_state = optax.apply_updates(pi_state, updates)

                        q_state_targ = update_targets(q_state, q_state_targ, params.polyak)

                        cumulative_metrics["pi_loss"] += pi_loss
                        cumulative_metrics["q_loss"] += q_loss

                        metrics = {
                            "Episode Length": ep_len,
                            "Cumulative Reward": ep_ret,
                            "Q Loss": f"{cumulative_metrics['q_loss'] / (i + 1):.4g}",
                            "PI Loss": f"{cumulative_metrics['pi_loss'] / (i + 1):.4g}",
                        }
                        pbar.set_postfix(metrics)

                step += 1


def main():
    env = gym.make("Humanoid-v2")

    training_params = TrainingParameters(
        epochs=10,
        steps_per_epoch=4000,
        batch_size=100,
        start_steps=10000,
        update_after=1000,
        update_every=50,
        learning_rate=1e-3,
        alpha=0.2,
        gamma=0.99,
        polyak=0.99
    )


    sac = SAC(env, training_params)
    sac.train()

env = gym.make("Humanoid-v2")  # scaffolding: main() with small sizes
training_params = TrainingParameters(epochs=1, steps_per_epoch=14, batch_size=8, start_steps=10000, update_after=4, update_every=4, learning_rate=1e-3, alpha=0.2, gamma=0.99, polyak=0.99)  # scaffolding
sac = SAC(env, training_params)  # scaffolding
sac.train()  # scaffolding
_report({"jit(eval_q_loss)", "jit(eval_pi_loss)"}, 16)  # scaffolding: 8 updates x (eval_q_loss, eval_pi_loss)
