# source: https://github.com/0xWOLAND/td3-jax/blob/e4c681ad3a052c62bd4b04caaf31a70f2ba92e3a/TD3.py
# expect: none
# runtime: COMPILES 3 CALLS 6
# why: TD3.__init__ wraps bound methods with jax.jit (self.critic_step = jax.jit(self._critic_step), ...); the methods read self's models, optimizers and hyperparameters, which are never reassigned, while the changing parameters are passed as arguments, so each step function compiles once and nothing is stale.

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


# --- end harness ---

import jax
import numpy as np
import optax
from flax import linen as nn
from flax import serialization
from jax import numpy as jnp
from jax import random as jrandom


# Implementation of Twin Delayed Deep Deterministic Policy Gradients (TD3)
# Paper: https://arxiv.org/abs/1802.09477


class Actor(nn.Module):

    action_dim: int
    max_action: float

    def setup(self):
        self.l1 = nn.Dense(256)
        self.l2 = nn.Dense(256)
        self.l3 = nn.Dense(self.action_dim)

    def __call__(self, state):
        a = nn.relu(self.l1(state))
        a = nn.relu(self.l2(a))
        action = self.max_action * nn.tanh(self.l3(a))
        return action


class Critic(nn.Module):

    def setup(self):
        # Q1 architecture
        self.l1 = nn.Dense(256)
        self.l2 = nn.Dense(256)
        self.l3 = nn.Dense(1)

        # Q2 architecture
        self.l4 = nn.Dense(256)
        self.l5 = nn.Dense(256)
        self.l6 = nn.Dense(1)

    def __call__(self, state, action):
        sa = jnp.concatenate([state, action], axis=-1)

        q1 = nn.relu(self.l1(sa))
        q1 = nn.relu(self.l2(q1))
        q1 = self.l3(q1)

        q2 = nn.relu(self.l4(sa))
        q2 = nn.relu(self.l5(q2))
        q2 = self.l6(q2)
        return q1, q2


    def Q1(self, state, action):
        sa = jnp.concatenate([state, action], axis=-1)

        q1 = nn.relu(self.l1(sa))
        q1 = nn.relu(self.l2(q1))
        q1 = self.l3(q1)
        return q1


class TD3:

    def __init__(
        self,
        state_dim,
        action_dim,
        max_action,
        discount=0.99,
        tau=0.005,
        policy_noise=0.2,
        noise_clip=0.5,
        policy_freq=2,
        seed=0,
        jit=False,
    ):

        self.rngs = PRNGKeys(seed)

        # initialize models
        dummy_state = jnp.ones([1, state_dim], dtype=jnp.float32)
        dummy_action = jnp.ones([1, action_dim], dtype=jnp.float32)

        actor_rng = self.rngs.get_key()
        self.actor_model = Actor(action_dim, max_action)
        self.actor_params = self.actor_model.init(actor_rng, dummy_state)
        self.actor_target_params = self.actor_model.init(actor_rng, dummy_state)
        self.actor_optimizer = optax.adam(learning_rate=3e-4)
        self.actor_opt_state = self.actor_optimizer.init(self.actor_params)

        critic_rng = self.rngs.get_key()
        self.critic_model = Critic()
        self.critic_params = self.critic_model.init(
                critic_rng, dummy_state, dummy_action)
        self.critic_target_params = self.critic_model.init(
                critic_rng, dummy_state, dummy_action)
        self.critic_optimizer = optax.adam(learning_rate=3e-4)
        self.critic_opt_state = self.critic_optimizer.init(self.critic_params)

        self.max_action = max_action
        self.discount = discount
        self.tau = tau
        self.policy_noise = policy_noise
        self.noise_clip = noise_clip
        self.policy_freq = policy_freq

        self.total_it = 0
        if jit:
            self.actor_step = jax.jit(self._actor_step)
            self.critic_step = jax.jit(self._critic_step)
            self.update_target_params = jax.jit(self._update_target_params)
            self.actor = jax.jit(self._actor)
        else:
            self.actor_step = self._actor_step
            self.critic_step = self._critic_step
            self.update_target_params = self._update_target_params
            self.actor = self._actor

    def _actor(self, actor_params, state):
        return self.actor_model.apply(actor_params, state)

    def select_action(self, state):
        state = jax.device_put(state[None])
        return np.array(self.actor(self.actor_params, state)).flatten()

    def _critic_loss(self,
            critic_params,
            critic_target_params,
            actor_target_params,
            transition,
            rng):
        state, action, next_state, reward, not_done = transition

        # get next action
        noise = jrandom.normal(rng, action.shape) * self.policy_noise
        noise = jnp.clip(noise, -self.noise_clip, self.noise_clip)
        next_action = self.actor_model.apply(actor_target_params, next_state)
        next_action = jnp.clip(next_action + noise, -self.max_action, self.max_action)

        # Compute the target Q value
        target_Q1, target_Q2 = self.critic_model.apply(
                critic_target_params, next_state, next_action)
        target_Q = jnp.minimum(target_Q1, target_Q2)
        target_Q = reward + not_done * self.discount * target_Q

        # Get current Q estimates
        current_Q1, current_Q2 = self.critic_model.apply(critic_params, state, action)

        # Compute critic loss
        Q1_loss = jnp.mean(jnp.square(current_Q1 - target_Q))
        Q2_loss = jnp.mean(jnp.square(current_Q2 - target_Q))
        critic_loss = Q1_loss + Q2_loss

        return critic_loss

    def _critic_step(self,
            critic_params,
            critic_opt_state,
            critic_target_params,
            actor_target_params,
            transition,
            rng):
        vgrad_fn = jax.value_and_grad(self._critic_loss, argnums=0)
        loss, grad = vgrad_fn(
                critic_params,
                critic_target_params,
                actor_target_params,
                transition,
                rng)
        updates, critic_opt_state = self.critic_optimizer.update(grad, critic_opt_state)
        critic_params = optax.apply_updates(critic_params, updates)
        return critic_params, critic_opt_state, loss

    def _actor_loss(self, actor_params, critic_params, state):
        action = self.actor_model.apply(actor_params, state)
        q_val = self.critic_model.apply(
                critic_params, state, action, method=self.critic_model.Q1)
        actor_loss = -jnp.mean(q_val)
        return actor_loss

    def _actor_step(self, actor_params, actor_opt_state, critic_params, state):
        vgrad_fn = jax.value_and_grad(self._actor_loss, argnums=0)
        loss, grad = vgrad_fn(actor_params, critic_params, state)
        updates, actor_opt_state = self.actor_optimizer.update(grad, actor_opt_state)
        actor_params = optax.apply_updates(actor_params, updates)
        return actor_params, actor_opt_state, loss

    def _update_target_params(self, params, target_params):
        def _update(param, target_param):
            return self.tau * param + (1 - self.tau) * target_param
        updated_params = jax.tree.map(_update, params, target_params)
        return updated_params

    def train(self, replay_buffer, batch_size=100):
        self.total_it += 1

        # Sample replay buffer
        state, action, next_state, reward, not_done = replay_buffer.sample(batch_size)
        transition = (state, action, next_state, reward, not_done)

        # critic step
        critic_step_rng = self.rngs.get_key()
        self.critic_params, self.critic_opt_state, _ = self.critic_step(
                self.critic_params,
                self.critic_opt_state,
                self.critic_target_params,
                self.actor_target_params,
                transition,
                critic_step_rng)


        # Delayed policy updates
        if self.total_it % self.policy_freq == 0:

            # actor_step
            self.actor_params, self.actor_opt_state, _ = self.actor_step(
                self.actor_params,
                self.actor_opt_state,
                self.critic_params,
                state)

            # Update the frozen target models
            params = (self.actor_params, self.critic_params)
            target_params = (self.actor_target_params, self.critic_target_params)
            updated_params = self.update_target_params(params, target_params)
            self.actor_target_params, self.critic_target_params = updated_params
    # (save/load with flax.serialization trimmed)


class ReplayBuffer(object):
    def __init__(self, state_dim, action_dim, max_size=int(1e6)):
        self.max_size = max_size
        self.ptr = 0
        self.size = 0

        self.state = np.zeros((max_size, state_dim))
        self.action = np.zeros((max_size, action_dim))
        self.next_state = np.zeros((max_size, state_dim))
        self.reward = np.zeros((max_size, 1))
        self.not_done = np.zeros((max_size, 1))


    def add(self, state, action, next_state, reward, done):
        self.state[self.ptr] = state
        self.action[self.ptr] = action
        self.next_state[self.ptr] = next_state
        self.reward[self.ptr] = reward
        self.not_done[self.ptr] = 1. - done

        self.ptr = (self.ptr + 1) % self.max_size
        self.size = min(self.size + 1, self.max_size)


    def sample(self, batch_size):
        ind = np.random.randint(0, self.size, size=batch_size)

        return (
            jax.device_put(self.state[ind]),
            jax.device_put(self.action[ind]),
            jax.device_put(self.next_state[ind]),
            jax.device_put(self.reward[ind]),
            jax.device_put(self.not_done[ind])
        )


class PRNGKeys:

    def __init__(self, seed=0):
        self._key = jrandom.PRNGKey(seed)

    def get_key(self):
        self._key, subkey = jrandom.split(self._key)
        return subkey


np.random.seed(0)  # scaffolding
state_dim, action_dim, max_action = 3, 1, 2.0  # scaffolding: Pendulum-v1 sizes
policy = TD3(state_dim, action_dim, max_action, jit=True)  # (main.py: kwargs with "jit": args.jit, default True)
replay_buffer = ReplayBuffer(state_dim, action_dim, max_size=1000)  # scaffolding: smaller buffer
for t in range(200):  # scaffolding: random transitions instead of gym rollouts
    s = np.random.randn(state_dim)
    replay_buffer.add(s, policy.select_action(np.array(s)), np.random.randn(state_dim), 0.1, 0.0)
for it in range(6):  # scaffolding: 6 training iterations (policy_freq=2 -> 3 actor updates)
    policy.train(replay_buffer, 100)
_report({"jit(_critic_step)", "jit(_actor_step)", "jit(_update_target_params)"}, 6)
