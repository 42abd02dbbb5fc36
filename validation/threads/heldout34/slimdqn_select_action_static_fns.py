# source: https://github.com/theovincent/slimDQN/blob/575b1f670bfc067fcc324eced43ec9a3f8601aa9/slimdqn/sample_collection/utils.py
# expect: none
# runtime: COMPILES 2 CALLS 12
# why: select_action takes the agent's jitted bound method and the optax schedule as static arguments on every env step, and learn_on_batch is jitted with self static while params are passed explicitly; bound methods compare equal and the schedule is created once, so each function compiles once.
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
from functools import partial
from typing import Dict, NamedTuple, Sequence

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.core import FrozenDict


class ReplayElement(NamedTuple):  # scaffolding: the fields of slimdqn's ReplayElement used by the loss
    state: jnp.ndarray
    action: jnp.ndarray
    reward: jnp.ndarray
    next_state: jnp.ndarray
    is_terminal: jnp.ndarray


class DQNNet(nn.Module):
    features: Sequence[int]
    cnn: bool
    n_actions: int

    @nn.compact
    def __call__(self, x):
        initializer = nn.initializers.lecun_normal()  # (the cnn=True branch trimmed)

        x = jnp.squeeze(x)

        for idx_layer in range(3 if self.cnn else 0, len(self.features)):
            x = nn.relu((nn.Dense(self.features[idx_layer], kernel_init=initializer)(x)))

        return nn.Dense(self.n_actions, kernel_init=initializer)(x)


class DQN:
    def __init__(
        self,
        q_key: jax.random.PRNGKey,
        observation_dim,
        n_actions,
        features: list,
        cnn: bool,
        learning_rate: float,
        gamma: float,
        update_horizon: int,
        update_to_data: int,
        target_update_frequency: int,
        loss_type: str = "huber",
        adam_eps: float = 1e-8,
    ):
        self.q_key = q_key
        self.q_network = DQNNet(features, cnn, n_actions)
        self.params = self.q_network.init(self.q_key, jnp.zeros(observation_dim, dtype=jnp.float32))

        self.state = np.zeros(observation_dim)

        self.optimizer = optax.adam(learning_rate, eps=adam_eps)
        self.optimizer_state = self.optimizer.init(self.params)
        self.target_params = self.params

        self.gamma = gamma
        self.update_horizon = update_horizon
        self.update_to_data = update_to_data
        self.target_update_frequency = target_update_frequency
        self.loss_type = loss_type

    def update_online_params(self, step: int, replay_buffer):
        if step % self.update_to_data == 0:
            batch_samples = replay_buffer.sample()

            self.params, self.optimizer_state, loss = self.learn_on_batch(
                self.params, self.target_params, self.optimizer_state, batch_samples
            )

            return loss
        return 0

    def update_target_params(self, step: int):
        if step % self.target_update_frequency == 0:
            self.target_params = self.params
            return True
        return False

    @partial(jax.jit, static_argnames="self")
    def learn_on_batch(
        self,
        params: FrozenDict,
        params_target: FrozenDict,
        optimizer_state,
        batch_samples,
    ):
        loss, grad_loss = jax.value_and_grad(self.loss_on_batch)(params, params_target, batch_samples)
        updates, optimizer_state = self.optimizer.update(grad_loss, optimizer_state)
        params = optax.apply_updates(params, updates)

        return params, optimizer_state, loss

    def loss_on_batch(self, params: FrozenDict, params_target: FrozenDict, samples):
        return jax.vmap(self.loss, in_axes=(None, None, 0))(params, params_target, samples).mean()

    def loss(self, params: FrozenDict, params_target: FrozenDict, sample: ReplayElement):
        # computes the loss for a single sample
        target = self.compute_target(params_target, sample)
        q_value = self.q_network.apply(params, sample.state)[sample.action]
        return jnp.square(q_value - target)

    def compute_target(self, params: FrozenDict, sample: ReplayElement):
        # computes the target value for single sample
        return sample.reward + (1 - sample.is_terminal) * (self.gamma**self.update_horizon) * jnp.max(
            self.q_network.apply(params, sample.next_state)
        )

    @partial(jax.jit, static_argnames="self")
    def best_action(self, params: FrozenDict, state: jnp.ndarray):
        # computes the best action for a single state
        return jnp.argmax(self.q_network.apply(params, state))

    def get_model(self) -> Dict:
        return {"params": self.params}


@partial(jax.jit, static_argnames=("best_action_fn", "n_actions", "epsilon_fn"))
def select_action(best_action_fn, params, state, key, n_actions, epsilon_fn, n_training_steps):
    uniform_key, action_key = jax.random.split(key)
    return jnp.where(
        jax.random.uniform(uniform_key) <= epsilon_fn(n_training_steps),  # if uniform < epsilon,
        jax.random.randint(action_key, (), 0, n_actions),  # take random action
        best_action_fn(params, state),  # otherwise, take a greedy action
    )


def collect_single_sample(key, env, agent, rb, p, epsilon_schedule, n_training_steps: int):
    action = select_action(
        agent.best_action, agent.params, agent.state, key, env.n_actions, epsilon_schedule, n_training_steps
    ).item()

    obs = env.observation  # (replay-buffer bookkeeping and reset handling trimmed)
    reward, absorbing = env.step(action)
    agent.state = env.observation
    return reward, absorbing


class _Env:  # scaffolding: stand-in for slimdqn's LunarLander wrapper
    n_actions = 4

    def __init__(self):
        self.observation = np.zeros(8, dtype=np.float32)

    def step(self, action):
        self.observation = self.observation + 0.1
        return 1.0, False


class _RB:  # scaffolding: fixed-size batches like slimdqn's ReplayBuffer.sample()
    def sample(self):
        k = jax.random.PRNGKey(0)
        return ReplayElement(jax.random.normal(k, (32, 8)), jnp.zeros(32, jnp.int32), jnp.ones(32),
                             jax.random.normal(k, (32, 8)), jnp.zeros(32))


p = {"epsilon_end": 0.01, "epsilon_duration": 1000}  # scaffolding
agent = DQN(jax.random.PRNGKey(0), (8,), 4, [32, 32], False, 1e-3, 0.99, 1, 1, 4)  # scaffolding
env, rb = _Env(), _RB()  # scaffolding
epsilon_schedule = optax.linear_schedule(1.0, p["epsilon_end"], p["epsilon_duration"])
key = jax.random.PRNGKey(1)  # scaffolding
for n_training_steps in range(6):  # scaffolding: the while loop of experiments/base/dqn.py train(), cut down
    key, exploration_key = jax.random.split(key)
    reward, has_reset = collect_single_sample(exploration_key, env, agent, rb, p, epsilon_schedule, n_training_steps)
    agent.update_online_params(n_training_steps, rb)
    agent.update_target_params(n_training_steps)
_report({"jit(select_action)", "jit(learn_on_batch)"}, 12)
