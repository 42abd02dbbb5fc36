# source: https://github.com/tesslerc/TD3-JAX/blob/55e290578729aba2680247122a4e105414cef539/agent.py
# expect: none
# runtime: COMPILES 1 CALLS 6
# why: The TD3 Agent jits its methods with static_argnums=0 (self hashed by identity) while update() mutates self.updates and the parameter attributes, but every jitted method receives the parameters as arguments and reads only constant hyper-parameters from self, so nothing is stale and update_critic compiles once.
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
from typing import Any, Tuple
import haiku as hk
import jax
import jax.numpy as jnp
import optax as optix  # scaffolding: jax.experimental.optix (2020) was removed; optax keeps adam/apply_updates
import numpy as np
import functools

jnp.DeviceArray = jax.Array  # scaffolding: the 2020 annotation name no longer exists
jax.tree_multimap = jax.tree_util.tree_map  # scaffolding: removed alias


class rlax:  # scaffolding: rlax is not installed; rlax.l2_loss(x, t) = 0.5 * (x - t) ** 2
    @staticmethod
    def l2_loss(predictions, targets):
        return 0.5 * (predictions - targets) ** 2


# --- networks.py ---
class Actor(hk.Module):
    def __init__(self, action_dim: int, max_action: float):
        super(Actor, self).__init__()
        self.action_dim = action_dim
        self.max_action = max_action

    def __call__(self, state: np.ndarray) -> jnp.DeviceArray:
        actor_net = hk.Sequential([
            hk.Flatten(),
            hk.Linear(256, w_init=hk.initializers.VarianceScaling(scale=2.0, distribution='uniform')),
            jax.nn.relu,
            hk.Linear(256, w_init=hk.initializers.VarianceScaling(scale=2.0, distribution='uniform')),
            jax.nn.relu,
            hk.Linear(self.action_dim, w_init=hk.initializers.VarianceScaling(scale=2.0, distribution='uniform'))
        ])
        return jnp.tanh(actor_net(state)) * self.max_action


class Critic(hk.Module):
    def __init__(self):
        super(Critic, self).__init__()

    def __call__(self, state_action: np.ndarray) -> Tuple[jnp.DeviceArray, jnp.DeviceArray]:
        def critic_net():
            return hk.Sequential([
            hk.Flatten(),
            hk.Linear(256, w_init=hk.initializers.VarianceScaling(scale=2.0, distribution='uniform')),
            jax.nn.relu,
            hk.Linear(256, w_init=hk.initializers.VarianceScaling(scale=2.0, distribution='uniform')),
            jax.nn.relu,
            hk.Linear(1, w_init=hk.initializers.VarianceScaling(scale=2.0, distribution='uniform'))
        ])
        critic_net_1 = critic_net()

        critic_net_2 = critic_net()

        return critic_net_1(state_action), critic_net_2(state_action)


# --- agent.py ---
OptState = Any


# Perform Polyak averaging provided two network parameters and the averaging value tau.
@jax.jit
def soft_update(target_params: hk.Params, online_params: hk.Params, tau: float = 0.005) -> hk.Params:
    return jax.tree_multimap(lambda x, y: (1 - tau) * x + tau * y, target_params, online_params)


class Agent(object):
    """Agent class for the TD3 algorithm. Combines both the agent and the learner functions."""
    def __init__(
            self,
            policy: str,
            action_dim: int,
            max_action: float,
            lr: float,
            discount: float,
            noise_clip: float,
            policy_noise: float,
            policy_freq: int,
            actor_rng: jnp.ndarray,
            critic_rng: jnp.ndarray,
            sample_state: np.ndarray
    ):
        self.discount = discount
        self.noise_clip = noise_clip
        self.policy_noise = policy_noise
        self.policy_freq = policy_freq
        self.max_action = max_action
        self.td3_update = policy == 'TD3'

        # scaffolding: hk.without_apply_rng added (2020 haiku's apply took no rng argument)
        self.actor = hk.without_apply_rng(hk.transform(lambda x: Actor(action_dim, max_action)(x)))
        actor_opt_init, self.actor_opt_update = optix.adam(lr)

        self.critic = hk.without_apply_rng(hk.transform(lambda x: Critic()(x)))  # scaffolding: without_apply_rng
        critic_opt_init, self.critic_opt_update = optix.adam(lr)

        self.actor_params = self.target_actor_params = self.actor.init(actor_rng, sample_state)
        self.actor_opt_state = actor_opt_init(self.actor_params)

        action = self.actor.apply(self.actor_params, sample_state)

        self.critic_params = self.target_critic_params = self.critic.init(critic_rng, jnp.concatenate((sample_state, action), 1))  # scaffolding: axis 1 (batched sample_state)
        self.critic_opt_state = critic_opt_init(self.critic_params)

        self.updates = 0

    def update(self, replay_buffer, batch_size: int, rng: jnp.ndarray) -> None:
        """
            Sample batch of transitions and update both the policy and critic networks.
            As this function contains a conditional function, periodically updating the actor, we do not jit compile it.
        """
        self.updates += 1

        # Provide each element an independent rng sample.
        replay_rand, critic_rand = jax.random.split(rng)

        state, action, next_state, reward, not_done = replay_buffer.sample(batch_size, replay_rand)

        self.critic_params, self.critic_opt_state = self.update_critic(self.critic_params, self.target_critic_params,
                                                                       self.target_actor_params, self.critic_opt_state,
                                                                       state, action, next_state, reward, not_done,
                                                                       critic_rand)

        if self.updates % self.policy_freq == 0:
            self.actor_params, self.actor_opt_state = self.update_actor(self.actor_params, self.critic_params,
                                                                        self.actor_opt_state, state)

            self.target_actor_params = soft_update(self.target_actor_params, self.actor_params)
            self.target_critic_params = soft_update(self.target_critic_params, self.critic_params)

    @functools.partial(jax.jit, static_argnums=0)
    def critic_1(
            self,
            critic_params: hk.Params,
            state_action: np.ndarray
    ) -> jnp.DeviceArray:
        """Retrieves the result from a single critic network. Relevant for the actor update rule."""
        return self.critic.apply(critic_params, state_action)[0].squeeze(-1)

    @functools.partial(jax.jit, static_argnums=0)
    def actor_loss(
            self,
            actor_params: hk.Params,
            critic_params: hk.Params,
            state: np.ndarray
    ) -> jnp.DeviceArray:
        """Standard DDPG update rule based on the gradient through a single critic network."""
        action = self.actor.apply(actor_params, state)
        return - jnp.mean(self.critic_1(critic_params, jnp.concatenate((state, action), 1)))

    @functools.partial(jax.jit, static_argnums=0)
    def update_actor(
            self,
            actor_params: hk.Params,
            critic_params: hk.Params,
            actor_opt_state: OptState,
            state: np.ndarray
    ) -> Tuple[hk.Params, OptState]:
        """Learning rule (stochastic gradient descent)."""
        _, gradient = jax.value_and_grad(self.actor_loss)(actor_params, critic_params, state)
        updates, opt_state = self.actor_opt_update(gradient, actor_opt_state)
        new_params = optix.apply_updates(actor_params, updates)
        return new_params, opt_state

    @functools.partial(jax.jit, static_argnums=0)
    def critic_loss(
            self,
            critic_params: hk.Params,
            target_critic_params: hk.Params,
            target_actor_params: hk.Params,
            state: np.ndarray,
            action: np.ndarray,
            next_state: np.ndarray,
            reward: np.ndarray,
            not_done: np.ndarray,
            rng: jnp.ndarray
    ) -> jnp.DeviceArray:
        """TD3 adds truncated Gaussian noise to the policy while training the critic."""
        noise = (
                jax.random.normal(rng, shape=action.shape) * self.policy_noise
        ).clip(-self.noise_clip, self.noise_clip)

        # Make sure the noisy action is within the valid bounds.
        next_action = (
                self.actor.apply(target_actor_params, next_state) + noise
        ).clip(-self.max_action, self.max_action)

        next_q_1, next_q_2 = self.critic.apply(target_critic_params, jnp.concatenate((next_state, next_action), 1))
        if self.td3_update:
            next_q = jax.lax.min(next_q_1, next_q_2)
        else:
            # Since the actor uses Q_1 for training, setting this as the target for the critic updates is sufficient to
            # obtain an equivalent update.
            next_q = next_q_1
        # Cut the gradient from flowing through the target critic. This is more efficient, computationally.
        target_q = jax.lax.stop_gradient(reward + self.discount * next_q * not_done)
        q_1, q_2 = self.critic.apply(critic_params, jnp.concatenate((state, action), 1))

        return jnp.mean(rlax.l2_loss(q_1, target_q) + rlax.l2_loss(q_2, target_q))

    @functools.partial(jax.jit, static_argnums=0)
    def update_critic(
            self,
            critic_params: hk.Params,
            target_critic_params: hk.Params,
            target_actor_params: hk.Params,
            critic_opt_state: OptState,
            state: np.ndarray,
            action: np.ndarray,
            next_state: np.ndarray,
            reward: np.ndarray,
            not_done: np.ndarray,
            rng: jnp.ndarray
    ) -> Tuple[hk.Params, OptState]:
        """Learning rule (stochastic gradient descent)."""
        _, gradient = jax.value_and_grad(self.critic_loss)(critic_params, target_critic_params, target_actor_params,
                                                           state, action, next_state, reward, not_done, rng)
        updates, opt_state = self.critic_opt_update(gradient, critic_opt_state)
        new_params = optix.apply_updates(critic_params, updates)
        return new_params, opt_state

    @functools.partial(jax.jit, static_argnums=0)
    def policy(self, actor_params: hk.Params, state: np.ndarray) -> jnp.DeviceArray:
        return self.actor.apply(actor_params, state)


class ReplayBuffer:  # scaffolding: stand-in for replay_buffer.ReplayBuffer
    def __init__(self, obs_dim, act_dim, size=256):
        k = jax.random.PRNGKey(3)
        self.s = np.asarray(jax.random.normal(k, (size, obs_dim)), np.float32)
        self.a = np.asarray(jax.random.uniform(k, (size, act_dim), minval=-1, maxval=1), np.float32)
        self.r = np.ones((size, 1), np.float32)
        self.d = np.ones((size, 1), np.float32)

    def sample(self, batch_size, rng):
        ind = np.asarray(jax.random.randint(rng, (batch_size,), 0, self.s.shape[0]))
        return self.s[ind], self.a[ind], self.s[ind] * 0.9, self.r[ind], self.d[ind]


# --- main.py training loop, reduced ---
obs_dim, act_dim = 3, 1  # scaffolding: Pendulum-like sizes
rng = jax.random.PRNGKey(0)
rng, actor_rng, critic_rng = jax.random.split(rng, 3)
agent = Agent('TD3', act_dim, 1.0, 3e-4, 0.99, 0.5, 0.2, 2, actor_rng, critic_rng,
              np.zeros((1, obs_dim), np.float32))  # scaffolding: batched sample_state
replay_buffer = ReplayBuffer(obs_dim, act_dim)
n_updates = 0
for t in range(6):  # scaffolding: 6 training steps
    action = agent.policy(agent.actor_params, np.zeros((1, obs_dim), np.float32))
    rng, update_rng = jax.random.split(rng)
    agent.update(replay_buffer, 32, update_rng)
    n_updates += 1
_report({"jit(update_critic)"}, n_updates)
