# source: https://github.com/Artur-Galstyan/jaxRL/blob/5756792705dbff026356cb2586990ee017b7e09a/jax_rl/examples/pg_test.py
# expect: none
# runtime: COMPILES 1 CALLS 184
# why: rollout_gym still re-wraps the policy with eqx.filter_jit every episode, but here the policy is the Actor module itself: its weights are traced leaves and its structure is the cache key, so the updated actor reuses one compilation across all episodes.
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



import jax  # scaffolding: used by the stand-ins
import jax.numpy as jnp  # scaffolding
# --- scaffolding: stand-ins for gymnasium, jaxonloader, rlax, matplotlib (not installed) ---
import numpy as np  # scaffolding


class _Space:  # scaffolding
    def __init__(self, n=None, shape=None): self.n, self.shape = n, shape  # scaffolding


class _LunarLanderStandIn:  # scaffolding: 8-d observations, 4 actions, episodes of 20-40 steps
    action_space, observation_space = _Space(n=4), _Space(shape=(8,))  # scaffolding
    _rs = np.random.RandomState(0)  # scaffolding
    def reset(self):  # scaffolding
        self._t, self._len = 0, self._rs.randint(20, 41)  # scaffolding
        return self._rs.uniform(-1, 1, 8).astype(np.float32), {}  # scaffolding
    def step(self, action):  # scaffolding
        self._t += 1  # scaffolding
        return self._rs.uniform(-1, 1, 8).astype(np.float32), float(self._rs.randn()), self._t >= self._len, False, {}  # scaffolding
    def render(self): pass  # scaffolding


class gymnasium:  # scaffolding
    make = staticmethod(lambda name: _LunarLanderStandIn())  # scaffolding
    Env = _LunarLanderStandIn  # scaffolding


gym = gymnasium  # scaffolding


class StandardDataset:  # scaffolding: jaxonloader's column container
    def __init__(self, *columns): self.columns = list(columns)  # scaffolding


class DataLoader:  # scaffolding: jaxonloader's DataLoader (drop_last batches of the columns)
    def __init__(self, batch_size, shuffle, drop_last, dataset): self.bs, self.ds = batch_size, dataset  # scaffolding
    def __iter__(self):  # scaffolding
        n = len(self.ds.columns[0]) - 1  # scaffolding: observations has one extra row (the final obs)
        for s in range(0, n - self.bs + 1, self.bs):  # scaffolding: drop_last=True
            yield tuple(c[s:s + self.bs] for c in self.ds.columns)  # scaffolding


class rlax:  # scaffolding: rlax.lambda_returns with the same recursion
    @staticmethod  # scaffolding
    def lambda_returns(r_t, discount_t, v_t, lambda_=1.0, stop_target_gradients=False):  # scaffolding
        lambda_ = jnp.ones_like(discount_t) * lambda_  # scaffolding
        def _body(acc, xs):  # scaffolding
            r, disc, v, lam = xs  # scaffolding
            acc = r + disc * ((1 - lam) * v + lam * acc)  # scaffolding
            return acc, acc  # scaffolding
        _, ret = jax.lax.scan(_body, v_t[-1], (r_t, discount_t, v_t, lambda_), reverse=True)  # scaffolding
        return ret  # scaffolding


class plt:  # scaffolding
    plot = show = staticmethod(lambda *a, **k: None)  # scaffolding


# --- jax_rl/commons.py (ReplayBuffer) ---
from typing import Optional

import equinox as eqx
import jax
import jax.numpy as jnp
from jaxtyping import Array, Bool


class ReplayBuffer(eqx.Module):
    actions: Array
    rewards: Array
    dones: Bool[Array, " n_steps"]
    log_probs: Array
    states: Array
    values: Optional[Array]

    def __init__(
        self,
        states: Array,
        actions: Array,
        rewards: Array,
        log_probs: Array,
        dones: Bool[Array, " n_steps"],
        values: Optional[Array] = None,
    ) -> None:
        self.states = states
        self.actions = actions
        self.rewards = rewards
        self.log_probs = log_probs
        self.dones = dones
        self.values = values



# --- jax_rl/rollout.py ---
_calls = [0]  # scaffolding
import equinox as eqx
# import gymnasium as gym  # scaffolding: stand-in defined below
import jax
import jax.numpy as jnp
import numpy as np
# from jaxonloader import StandardDataset  # scaffolding: stand-in defined below
from jaxtyping import PRNGKeyArray, PyTree


def rollout_gym(
    env: gym.Env,
    policy: PyTree,
    key: PRNGKeyArray,
    render: bool = False,
) -> StandardDataset:
    """Rollout a policy in a gym environment."""

    obs, info = env.reset()

    observations = [obs]
    actions = []
    log_probs = []
    rewards = []
    dones = []
    info = None

    policy = eqx.filter_jit(policy)

    while True:
        key, subkey = jax.random.split(key)
        logits = policy(obs)
        _calls[0] += 1  # scaffolding: count calls of the jitted policy
        action = jax.random.categorical(logits=logits, key=subkey)
        action = np.array(action)
        log_prob = np.array(jax.nn.log_softmax(np.array(logits)))
        log_probs.append(log_prob[action])
        obs, reward, terminated, truncated, info = env.step(action)
        if render:
            env.render()

        observations.append(obs)
        done = terminated or truncated
        actions.append(action)
        rewards.append(reward)
        dones.append(done)

        if done:
            break
    return StandardDataset(
        jnp.array(observations, dtype=jnp.float32),
        jnp.array(actions),
        jnp.array(rewards),
        jnp.array(log_probs),
        jnp.array(dones),
    )


# --- jax_rl/policy_gradient.py ---
from typing import Tuple

import equinox as eqx
import jax
import jax.numpy as jnp
import optax
# import rlax  # scaffolding: stand-in defined above
from jaxtyping import Array, PRNGKeyArray, PyTree

# from jax_rl.commons import ReplayBuffer  # scaffolding: inlined above


def objective_fn(
    policy: PyTree,
    critic: PyTree,
    replay_buffer: ReplayBuffer,
    lambda_: float = 1.0,
    gamma: float = 0.99,
) -> Array:
    logits = eqx.filter_vmap(policy)(replay_buffer.states)
    log_probs = jax.nn.log_softmax(logits)
    log_probs_actions = jnp.take_along_axis(
        log_probs, jnp.expand_dims(replay_buffer.actions, -1), axis=1
    )
    rewards = rlax.lambda_returns(
        r_t=replay_buffer.rewards,
        discount_t=jnp.array([gamma] * len(replay_buffer.rewards)),
        v_t=eqx.filter_vmap(critic)(replay_buffer.states).reshape(-1),
        lambda_=lambda_,
    )
    values = eqx.filter_vmap(critic)(replay_buffer.states)
    advantages = rewards - values
    return -jnp.mean(log_probs_actions * advantages)


def step_actor_network(
    actor: PyTree,
    optimiser: optax.GradientTransformation,
    optimiser_state: optax.OptState,
    critic: PyTree,
    replay_buffer: ReplayBuffer,
) -> Tuple[PyTree, optax.OptState]:
    grad = eqx.filter_grad(objective_fn)(actor, critic, replay_buffer)
    updates, optimiser_state = optimiser.update(grad, optimiser_state, actor)
    actor = eqx.apply_updates(actor, updates)

    return actor, optimiser_state


def critic_loss_fn(
    critic: PyTree,
    replay_buffer: ReplayBuffer,
) -> Array:
    """Calculate the value loss for a given set of states and rewards.
    Args:
        value_network: The value network.
        states: The states to calculate the value loss for.
        rewards: The rewards to calculate the value loss for.
    Returns:
        The value loss.
    """
    values = eqx.filter_vmap(critic)(replay_buffer.states)
    return jnp.mean((values - replay_buffer.rewards) ** 2)


def step_critic_network(
    critic: PyTree,
    optimiser: optax.GradientTransformation,
    optimiser_state: optax.OptState,
    replay_buffer: ReplayBuffer,
) -> Tuple[PyTree, optax.OptState]:
    grad = eqx.filter_grad(critic_loss_fn)(critic, replay_buffer)
    updates, optimiser_state = optimiser.update(grad, optimiser_state, critic)
    critic = eqx.apply_updates(critic, updates)

    return critic, optimiser_state


@eqx.filter_jit
def train(
    actor: PyTree,
    actor_optimiser: optax.GradientTransformation,
    actor_optimiser_state: optax.OptState,
    critic: PyTree,
    critic_optimiser: optax.GradientTransformation,
    critic_optimiser_state: optax.OptState,
    replay_buffer: ReplayBuffer,
    *,
    key: PRNGKeyArray,
) -> tuple[PyTree, optax.OptState, PyTree, optax.OptState]:
    print("JIT")
    key, subkey = jax.random.split(key)

    actor, actor_optimiser_state = step_actor_network(
        actor=actor,
        optimiser=actor_optimiser,
        optimiser_state=actor_optimiser_state,
        critic=critic,
        replay_buffer=replay_buffer,
    )
    critic, critic_optimiser_state = step_critic_network(
        critic=critic,
        optimiser=critic_optimiser,
        optimiser_state=critic_optimiser_state,
        replay_buffer=replay_buffer,
    )

    return actor, actor_optimiser_state, critic, critic_optimiser_state


# --- jax_rl/examples/pg_test.py ---
import equinox as eqx
# import gymnasium as gym  # scaffolding: stand-in defined above
import jax
import jax.numpy as jnp
# import matplotlib.pyplot as plt  # scaffolding
import optax
# from jaxonloader import DataLoader  # scaffolding: stand-in defined above
from jaxtyping import Array, Float32, PRNGKeyArray
from tqdm import tqdm

# from jax_rl.commons import ReplayBuffer  # scaffolding: inlined above
# from jax_rl.policy_gradient import train  # scaffolding: inlined above
# from jax_rl.rollout import rollout_gym  # scaffolding: inlined above


class Actor(eqx.Module):
    """Policy network for the policy gradient algorithm in a discrete action space."""

    mlp: eqx.nn.MLP

    def __init__(
        self,
        in_size: int,
        out_size: int,
        key: PRNGKeyArray,
        width_size: int = 32,
        depth: int = 2,
    ) -> None:
        key, *subkeys = jax.random.split(key, 5)
        self.mlp = eqx.nn.MLP(
            in_size=in_size,
            out_size=out_size,
            width_size=width_size,
            depth=depth,
            key=key,
        )

    def __call__(self, x: Float32[Array, " state_dims"]) -> Array:
        """Forward pass of the policy network.
        Args:
            x: The input to the policy network.
        Returns:
            The output of the policy network.
        """
        return self.mlp(x)


class Critic(eqx.Module):
    """Value network for the policy gradient algorithm in a discrete action space."""

    mlp: eqx.nn.MLP

    def __init__(
        self,
        in_size: int,
        out_size: int,
        key: PRNGKeyArray,
        width_size: int = 64,
        depth: int = 3,
    ) -> None:
        key, *subkeys = jax.random.split(key, 5)
        self.mlp = eqx.nn.MLP(
            in_size=in_size,
            out_size=out_size,
            width_size=width_size,
            depth=depth,
            key=key,
        )

    def __call__(self, x: Float32[Array, " state_dims"]) -> Array:
        """Forward pass of the policy network.
        Args:
            x: The input to the policy network.
        Returns:
            The output of the policy network.
        """
        return self.mlp(x)


env = gym.make("LunarLander-v2")
# env = gym.make("CartPole-v1")

learning_rate = 3e-4


assert env.observation_space.shape is not None, "Observation space must be defined."
assert env.action_space is not None, "Action space must be defined."
actor = Actor(
    in_size=env.observation_space.shape[0],
    out_size=env.action_space.n,  # type: ignore
    key=jax.random.PRNGKey(0),
)

critic = Critic(
    in_size=env.observation_space.shape[0],
    out_size=1,
    key=jax.random.PRNGKey(1),
)

actor_optimiser = optax.adam(learning_rate)
critic_optimiser = optax.adam(learning_rate)
critic_optimiser_state = critic_optimiser.init(eqx.filter(critic, eqx.is_inexact_array))
actor_optimiser_state = actor_optimiser.init(eqx.filter(actor, eqx.is_inexact_array))
key = jax.random.PRNGKey(2)

n_episodes = 6  # scaffolding: 2000 in the repo
batch_size = 8  # scaffolding: 32 in the repo (the stand-in episodes are 20-40 steps)

all_rewards = []
for eps in tqdm(range(n_episodes)):
    key, subkey, subkey2 = jax.random.split(key, 3)
    dataset = rollout_gym(env, actor, subkey)

    dataloader = DataLoader(
        batch_size=batch_size, shuffle=False, drop_last=True, dataset=dataset
    )

    all_rewards.append(jnp.sum(dataset.columns[2]))

    for batch in dataloader:
        obs, actions, rewards, log_probs, dones = batch
        b = ReplayBuffer(
            states=jnp.array(obs),
            actions=jnp.array(actions),
            rewards=jnp.array(rewards, dtype=jnp.float32),
            log_probs=jnp.array(log_probs),
            dones=jnp.array(dones),
        )

        actor, actor_optimiser_state, critic, critic_optimiser_state = train(
            actor=actor,
            actor_optimiser=actor_optimiser,
            actor_optimiser_state=actor_optimiser_state,
            critic=critic,
            critic_optimiser=critic_optimiser,
            critic_optimiser_state=critic_optimiser_state,
            replay_buffer=b,
            key=subkey2,
        )

plt.plot(all_rewards)
plt.show()
_report({"jit(Actor)"}, _calls[0])  # scaffolding: policy calls over 6 episodes
