# source: https://github.com/SamKG/Reinforcement-Learning-In-JAX/blob/d687f2135fecda53683034d266039e8489a0f9cd/src/training.py
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: trajectory_pytree is jitted with static_argnames=("gamma") (a bare string) and fed Python lists of per-step arrays and Python floats, which looks like churn, but the list length is fixed by steps_per_episode and the float leaves are weakly typed scalars, so every epoch reuses one compile.

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
import functools
from typing import Callable, Dict, List, Sequence, Tuple

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np  # scaffolding
from jax import device_put


class Categorical:  # scaffolding: stand-in for distrax.Categorical (not installed)
    def __init__(self, logits):
        self.logits = logits

    def sample(self, seed):
        return jax.random.categorical(seed, self.logits)

    def log_prob(self, action):
        return jax.nn.log_softmax(self.logits)[action]


class rlax:  # scaffolding: stand-in for rlax.discounted_returns (not installed)
    @staticmethod
    def discounted_returns(r_t, discount_t, v_t, stop_target_gradients=False):
        def body(acc, xs):
            r, d = xs
            acc = r + d * acc
            return acc, acc
        _, out = jax.lax.scan(body, v_t[-1], (r_t, discount_t), reverse=True)
        return out


# src/actorcritic.py (jax.random.KeyArray annotations, gone from jax 0.10, written as jax.Array)
class MLP(eqx.Module):
    layers: Sequence[eqx.nn.Linear]
    activation_fn: Callable[[jnp.ndarray], jnp.ndarray]

    def __init__(
        self,
        features: List[int],
        key: jax.Array,
        activation_fn: Callable[[jnp.ndarray], jnp.ndarray] = jax.nn.leaky_relu
    ):
        keys = jax.random.split(key, len(features) - 1)
        self.layers = [
            eqx.nn.Linear(features[i], features[i + 1], key=keys[i])
            for i in range(len(features) - 1)
        ]
        self.activation_fn = activation_fn

    def __call__(self, x: jnp.ndarray) -> jnp.ndarray:
        for (idx, layer) in enumerate(self.layers):
            x = layer(x)
            if idx != len(self.layers) - 1:
                x = self.activation_fn(x)
        return x


class Actor(MLP):
    def __init__(self, obs_space_size, hidden_features, action_space_size, key):
        features = [obs_space_size] + hidden_features + [action_space_size]
        super(Actor, self).__init__(features, key)


class Critic(MLP):
    def __init__(self, obs_space_size, hidden_features, key):
        features = [obs_space_size] + hidden_features + [1]
        super(Critic, self).__init__(features, key)


class ActorCritic(eqx.Module):
    actor: Actor
    critic: Critic

    def __init__(self, obs_space_size, action_space_size, actor_hidden_features, critic_hidden_features, key):
        (actor_key, critic_key) = jax.random.split(key)

        self.actor = Actor(
            obs_space_size, actor_hidden_features, action_space_size, actor_key
        )
        self.critic = Critic(obs_space_size, critic_hidden_features, critic_key)

    @eqx.filter_jit
    def get_action_logits(self, observation: jnp.ndarray) -> jnp.ndarray:
        return self.actor(observation)

    @eqx.filter_jit
    def act_with_logits(
        self, observation: jnp.ndarray, key: jax.Array
    ) -> Tuple[jnp.ndarray, jnp.ndarray]:
        action_logits = self.get_action_logits(observation)
        return (Categorical(action_logits).sample(seed=key), action_logits)

    @eqx.filter_jit
    def critique(self, observation: jnp.ndarray) -> jnp.ndarray:
        return self.critic(observation)


# src/training.py
@functools.partial(jax.jit, static_argnames=("gamma"))
def trajectory_pytree(
    observations, actions, logits, rewards, discounts_mask, values, gamma
):
    """
    Computes a PyTree of useful quantities from trajectory data.
    """
    observations = jnp.array(observations)
    actions = jnp.array(actions)
    logits = jnp.array(logits)
    rewards = jnp.array(rewards)
    discounts_mask = jnp.array(discounts_mask)
    values = jnp.concatenate(values)

    # what's the point of passing values here? they are never used..
    discounted_rewards = rlax.discounted_returns(
        rewards, discounts_mask * gamma, values, stop_target_gradients=True
    )

    advantages = discounted_rewards - values

    # We don't compute gradient of loss w.r.t. old probabilities (https://arxiv.org/pdf/1707.06347.pdf)
    old_probabilities = jax.vmap(
        lambda action, logits: Categorical(logits).log_prob(action), 0
    )(jax.lax.stop_gradient(actions), jax.lax.stop_gradient(logits))

    return {
        "observations": observations,
        "actions": actions,
        "logits": logits,
        "rewards": rewards,
        "discounts": discounts_mask * gamma,
        "values": values,  # values are *estimates* given by criticc
        "discounted_rewards": discounted_rewards,
        "advantages": advantages,  # advantages are *estimates*
        "probabilities": old_probabilities,
    }


split_keys_permanent = jax.jit(jax.random.split, static_argnames=("num",))


def policy_trajectory(
    env,
    agent: ActorCritic,
    steps_per_episode: int,
    gamma: float,
    key: jax.Array,
) -> Dict[str, jnp.ndarray]:
    """
    Collects steps_per_episode steps from the environment using the agent's policy. Note that there may be multiple terminal states in the trajectory.
    """
    observation, done = device_put(jnp.array(env.reset()).flatten()), False
    observations, actions, logits, rewards, discounts_mask, values = (
        [None] * steps_per_episode,
        [None] * steps_per_episode,
        [None] * steps_per_episode,
        [None] * steps_per_episode,
        [None] * steps_per_episode,
        [None] * steps_per_episode,
    )
    keys = split_keys_permanent(key, steps_per_episode)
    for step in range(steps_per_episode):
        if done:
            observation = device_put(jnp.array(env.reset()).flatten())

        observations[step] = observation
        # discounts of 0.0 are used to signal terminal states
        discounts_mask[step] = 0.0 if done else 1.0

        action, action_logits = agent.act_with_logits(observation, keys[step])
        observation, reward, done, info = env.step(action.item())
        observation = device_put(jnp.array(observation).flatten())

        actions[step] = action
        logits[step] = action_logits
        rewards[step] = reward
        values[step] = agent.critique(observation)

    trajectory = trajectory_pytree(
        observations, actions, logits, rewards, discounts_mask, values, gamma=gamma
    )

    return trajectory


class _Env:  # scaffolding: stand-in for gym's CartPole-v1 (old 4-tuple step API)
    def __init__(self):
        self.rng = np.random.default_rng(0)
        self.t = 0

    def reset(self):
        self.t = 0
        return self.rng.normal(size=4).astype(np.float32)

    def step(self, action):
        self.t += 1
        return self.rng.normal(size=4).astype(np.float32), 1.0, self.t % 7 == 0, {}


# cartpole.ipynb, cell 0 (optimizer step, checkpointing and pandas logging cut)
env = _Env()
observation = env.reset()
key = jax.random.PRNGKey(0)
agent = ActorCritic(observation.shape[0], 2, [64], [64], key=key)
epochs = 4  # scaffolding: 1000 in the notebook
for epoch in range(epochs):
    key = jax.random.split(key, 2)[1]
    trajectory = policy_trajectory(env, agent, 20, 0.99, key)  # scaffolding: 500 steps per episode
_report({"jit(trajectory_pytree)"}, epochs)  # scaffolding
