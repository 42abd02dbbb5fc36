# source: https://github.com/yardenas/safe-opax/commit/a0a8c9ee27939e51d6e0adfa7f564fccd90cfecc
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: after the commit the uniform policy lambda is built once in __init__ and get_policy() returns the same object, so the static policy_fn hashes equal and policy compiles once for 5 steps.
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


import types  # scaffolding: SimpleNamespace stand-ins for modules that are not installed or were cut
from typing import NamedTuple, Union, Callable

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np

jax.tree_map = jax.tree_util.tree_map  # scaffolding: jax.tree_map was removed from jax; the 2024 code uses it

Box = DictConfig = Model = object  # scaffolding: gymnasium Box, omegaconf DictConfig and safe_opax Model are type hints only here
FloatArray = np.ndarray  # scaffolding: safe_opax.rl.types.FloatArray
Policy = Union[Callable[[jax.Array, jax.Array | None], jax.Array], jax.Array]


class State(NamedTuple):
    stochastic: jax.Array
    deterministic: jax.Array

    def flatten(self):
        return jnp.concatenate([self.stochastic, self.deterministic], axis=-1)


rssm = types.SimpleNamespace(State=State, RSSM=object)  # scaffolding: the safe_opax.la_mbda.rssm module


class Exploration:
    def update(
        self,
        model: Model,
        initial_states: jax.Array,
        key: jax.Array,
    ) -> dict[str, float]:
        return {}

    def get_policy(self) -> Policy:
        raise NotImplementedError("Must be implemented by subclass")


def make_exploration(
    config: DictConfig, action_dim: int, key: jax.Array
) -> Exploration:
    if config.agent.exploration_strategy == "opax":
        return OpaxExploration(config, action_dim, key)
    elif config.agent.exploration_strategy == "uniform":
        return UniformExploration(action_dim)
    else:
        raise NotImplementedError("Unknown exploration strategy")


class UniformExploration(Exploration):
    def __init__(self, action_dim: int):
        self.action_dim = action_dim
        self.policy = lambda _, key: jax.random.uniform(key, (self.action_dim,))


    def get_policy(self) -> Policy:
        return self.policy


class PRNGSequence:
    def __init__(self, seed: int):
        self.key = jax.random.PRNGKey(seed)

    def __iter__(self):
        return self

    def __next__(self):
        self.key, subkey = jax.random.split(self.key)
        return subkey


class Count:
    def __init__(self, n: int, steps: int = 1):
        self.count = 0
        self.n = (n // steps) * steps
        self.steps = steps

    def __call__(self):
        bingo = (self.count + self.steps) == self.n
        self.count = (self.count + self.steps) % self.n
        return bingo


class Until:
    def __init__(self, n: int, steps: int = 1):
        self.count = 0
        self.n = n
        self.steps = steps

    def __call__(self):
        return self.count <= self.n

    def tick(self):
        self.count += self.steps


@eqx.filter_jit
def policy(policy_fn, model, prev_state, observation, key):
    def per_env_policy(prev_state, observation, key):
        model_key, policy_key = jax.random.split(key)
        current_rssm_state = model.infer_state(
            prev_state.rssm_state, observation, prev_state.prev_action, model_key
        )
        action = policy_fn(current_rssm_state.flatten(), policy_key)
        return action, AgentState(current_rssm_state, action)

    observation = preprocess(observation)
    return jax.vmap(per_env_policy)(
        prev_state, observation, jax.random.split(key, observation.shape[0])
    )


class AgentState(NamedTuple):
    rssm_state: rssm.State
    prev_action: jax.Array

    @classmethod
    def init(cls, batch_size: int, cell: rssm.RSSM, action_dim: int) -> "AgentState":
        rssm_state = cell.init
        rssm_state = jax.tree_map(
            lambda x: jnp.repeat(x[None], batch_size, 0), rssm_state
        )
        prev_action = jnp.zeros((batch_size, action_dim))
        self = cls(rssm_state, prev_action)
        return self


class _Cell(eqx.Module):  # scaffolding: stand-in for rssm.RSSM (only .init is used here)
    init: State  # scaffolding


class _WorldModel(eqx.Module):  # scaffolding: stand-in for WorldModel; infer_state encodes the image into the next state
    cell: _Cell  # scaffolding
    encoder: eqx.nn.Linear  # scaffolding

    def infer_state(self, prev_rssm_state, observation, prev_action, key):  # scaffolding
        embedding = self.encoder(jnp.concatenate([observation.reshape(-1), prev_action]))  # scaffolding
        return State(jnp.tanh(embedding[:2]), prev_rssm_state.deterministic + embedding[2:])  # scaffolding


class _Actor:  # scaffolding: stand-in for the actor-critic's actor
    def act(self, state, key):  # scaffolding
        return jnp.tanh(state[:2])  # scaffolding


class LaMBDA:
    def __init__(
        self,
        observation_space: Box,
        action_space: Box,
        config: DictConfig,
    ):
        self.config = config
        self.replay_buffer = types.SimpleNamespace(empty=True)  # scaffolding: the replay buffer is never sampled here
        self.prng = PRNGSequence(config.training.seed)
        action_dim = int(np.prod(action_space.shape))
        assert len(observation_space.shape) == 3
        self.model = _WorldModel(_Cell(State(jnp.zeros(2), jnp.zeros(2))), eqx.nn.Linear(4 * 4 * 3 + 2, 4, key=next(self.prng)))  # scaffolding: stand-in world model
        self.actor_critic = types.SimpleNamespace(actor=_Actor())  # scaffolding: stand-in for make_actor_critic(...)
        self.exploration = make_exploration(
            config,
            action_dim,
            next(self.prng),
        )
        self.state = AgentState.init(
            config.training.parallel_envs, self.model.cell, action_dim
        )
        environment_steps_per_agent_step = (
            config.training.parallel_envs * config.training.action_repeat
        )
        self.should_train = Count(
            config.agent.train_every,
            environment_steps_per_agent_step,
        )
        self.should_explore = Until(
            config.agent.exploration_steps, environment_steps_per_agent_step
        )

    def __call__(
        self,
        observation: FloatArray,
        train: bool = False,
    ) -> FloatArray:
        if train and self.should_train() and not self.replay_buffer.empty:
            self.update()
        policy_fn = (
            self.exploration.get_policy()
            if self.should_explore()
            else self.actor_critic.actor.act
        )
        self.should_explore.tick()
        actions, self.state = policy(
            policy_fn,
            self.model,
            self.state,
            observation,
            next(self.prng),
        )
        return np.asarray(actions)


def preprocess(image):
    return image / 255.0 - 0.5


_ns = types.SimpleNamespace  # scaffolding
config = _ns(training=_ns(seed=0, parallel_envs=2, action_repeat=1),  # scaffolding: the hydra config keys LaMBDA reads
             agent=_ns(exploration_strategy="uniform", train_every=1000, exploration_steps=100))  # scaffolding
agent = LaMBDA(_ns(shape=(4, 4, 3)), _ns(shape=(2,)), config)  # scaffolding
observation = np.zeros((2, 4, 4, 3), dtype=np.float32)  # scaffolding: a batch of 2 parallel-env images
for _ in range(5):  # scaffolding: 5 environment steps in the exploration phase
    actions = agent(observation, train=True)  # scaffolding
_report({"jit(policy)"}, 5)  # scaffolding
