# source: https://github.com/Artur-Galstyan/jaxRL/blob/5756792705dbff026356cb2586990ee017b7e09a/jax_rl/examples/ppo.py
# expect: jit-in-loop-or-body at line 154
# runtime: COMPILES 6 CALLS 184
# why: every episode builds a new lambda (partial_agent) and rollout_gym wraps it in eqx.filter_jit again; a plain function is a static part of the cache key, so the jitted policy compiles once per episode (6 compiles for 6 episodes).
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


class rlax:  # scaffolding: the two rlax functions ppo.py uses, same formulas
    @staticmethod  # scaffolding
    def truncated_generalized_advantage_estimation(r_t, discount_t, values, lambda_, stop_target_gradients=True):  # scaffolding
        lambda_ = jnp.ones_like(discount_t) * lambda_  # scaffolding
        delta_t = r_t + discount_t * values[1:] - values[:-1]  # scaffolding
        def _body(acc, xs):  # scaffolding
            d, disc, lam = xs  # scaffolding
            acc = d + disc * lam * acc  # scaffolding
            return acc, acc  # scaffolding
        _, adv = jax.lax.scan(_body, 0.0, (delta_t, discount_t, lambda_), reverse=True)  # scaffolding
        return jax.lax.stop_gradient(adv) if stop_target_gradients else adv  # scaffolding
    @staticmethod  # scaffolding
    def clipped_surrogate_pg_loss(prob_ratios_t, adv_t, epsilon):  # scaffolding
        clipped = jnp.clip(prob_ratios_t, 1.0 - epsilon, 1.0 + epsilon)  # scaffolding
        return -jnp.mean(jnp.fmin(prob_ratios_t * adv_t, clipped * adv_t))  # scaffolding


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


# --- jax_rl/examples/ppo.py ---
from functools import partial

import equinox as eqx
# import gymnasium  # scaffolding: stand-in defined above
import jax
import jax.numpy as jnp
# import matplotlib.pyplot as plt  # scaffolding
import optax
# import rlax  # scaffolding: stand-in defined above
# from jaxonloader import DataLoader, StandardDataset  # scaffolding
from jaxtyping import Array, Float, PRNGKeyArray, PyTree
from tqdm import tqdm

# from jax_rl.commons import ReplayBuffer  # scaffolding: inlined above
# from jax_rl.rollout import rollout_gym  # scaffolding: inlined above


batch_size = 8
gamma = 0.99
lambda_ = 0.95
clip_ratio = 0.2
learning_rate = 3e-4
env_name = "LunarLander-v2"
env = gymnasium.make(env_name)
n_actions = env.action_space.n  # type: ignore
assert env.observation_space.shape is not None, "Observation space must be defined."
n_dims = env.observation_space.shape[0]
n_episodes = 6  # scaffolding: 500 in the repo


class Agent(eqx.Module):
    actor: eqx.nn.MLP
    critic: eqx.nn.MLP

    def __init__(self, in_size: int, out_size: int, *, key: PRNGKeyArray) -> None:
        key, *subkeys = jax.random.split(key, 3)
        self.actor = eqx.nn.MLP(
            in_size, out_size, width_size=32, depth=3, key=subkeys[0]
        )
        self.critic = eqx.nn.MLP(in_size, 1, width_size=32, depth=3, key=subkeys[1])

    def __call__(self, x: Float[Array, " n_dims"]) -> tuple[Array, Array]:
        return self.actor(x), self.critic(x)


def objective_fn(
    agent: Agent,
    replay_buffer: ReplayBuffer,
    clip_ratio: float,
    gamma: float,
    lambda_: float,
) -> Float[Array, ""]:
    actor_logits, values = eqx.filter_vmap(agent)(replay_buffer.states)
    log_probs = jax.nn.log_softmax(actor_logits)
    log_probs_actions = jnp.take_along_axis(
        log_probs, jnp.expand_dims(replay_buffer.actions, -1), axis=1
    )

    advantages = rlax.truncated_generalized_advantage_estimation(
        r_t=replay_buffer.rewards.reshape(-1)[:-1],
        discount_t=jnp.array([gamma] * (len(replay_buffer.rewards) - 1)).reshape(-1),
        values=values.reshape(-1),
        lambda_=lambda_,
        stop_target_gradients=True,
    )

    ratio = jnp.exp(log_probs_actions.reshape(-1) - replay_buffer.log_probs.reshape(-1))
    advantages = jnp.append(advantages, jnp.array(0.0))
    loss = rlax.clipped_surrogate_pg_loss(
        prob_ratios_t=ratio,
        adv_t=advantages,
        epsilon=clip_ratio,
    )

    return jnp.array(loss)


@eqx.filter_jit
def step(
    agent: PyTree,
    optimiser: optax.GradientTransformation,
    optimiser_state: optax.OptState,
    replay_buffer: ReplayBuffer,
):
    grad = eqx.filter_grad(objective_fn)(
        agent, replay_buffer, clip_ratio, gamma, lambda_
    )
    updates, optimiser_state = optimiser.update(grad, optimiser_state, agent)
    agent = eqx.apply_updates(agent, updates)

    return agent, optimiser_state


agent = Agent(n_dims, n_actions, key=jax.random.PRNGKey(0))
agent_optimiser = optax.adam(learning_rate)
agent_optimiser_state = agent_optimiser.init(eqx.filter(agent, eqx.is_inexact_array))
key = jax.random.PRNGKey(2)

all_rewards = []

for eps in tqdm(range(n_episodes)):
    key, subkey, subkey2 = jax.random.split(key, 3)
    partial_agent = lambda x: agent(x)[0]
    dataset = rollout_gym(env, partial_agent, subkey)

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

        agent, agent_optimiser_state = step(
            agent, agent_optimiser, agent_optimiser_state, b
        )

plt.plot(all_rewards)
plt.show()
_report({"jit(<lambda>)"}, _calls[0])  # scaffolding: policy calls over 6 episodes
