# source: https://github.com/yardenas/actsafe/commit/a0a8c9ee27939e51d6e0adfa7f564fccd90cfecc
# expect: changing-static at line 178
# runtime: COMPILES 5 CALLS 5
# why: before the commit UniformExploration.get_policy returns a new lambda on every agent step, and eqx.filter_jit treats that callable as a static argument hashed by identity, so policy recompiles on each of the 5 calls.
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



from typing import NamedTuple, Union, Callable  # scaffolding: imports of the inlined modules

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np

jax.tree_map = jax.tree.map  # scaffolding: jax.tree_map (2024) was removed in newer JAX
FloatArray = np.ndarray  # scaffolding: safe_opax.rl.types.FloatArray
Model = eqx.Module  # scaffolding: safe_opax.rl.types.Model (annotation only)
Policy = Union[Callable[[jax.Array, jax.Array | None], jax.Array], jax.Array]  # safe_opax/rl/types.py


# ---- safe_opax/la_mbda/rssm.py (State only) ----
class State(NamedTuple):
    stochastic: jax.Array
    deterministic: jax.Array

    def flatten(self):
        return jnp.concatenate([self.stochastic, self.deterministic], axis=-1)

    @classmethod
    def from_flat(cls, flat, stochastic_size):
        stochastic, deterministic = jnp.split(
            flat,
            [
                stochastic_size,
            ],  # type: ignore
            axis=-1,
        )
        self = cls(stochastic, deterministic)
        return self


from types import SimpleNamespace  # scaffolding
rssm = SimpleNamespace(State=State, RSSM=object)  # scaffolding: `from safe_opax.la_mbda import rssm`


# ---- safe_opax/rl/utils.py (PRNGSequence, Count, Until) ----
class PRNGSequence:
    def __init__(self, seed: int):
        self.key = jax.random.PRNGKey(seed)

    def __iter__(self):
        return self

    def __next__(self):
        self.key, subkey = jax.random.split(self.key)
        return subkey

    def take_n(self, n):
        keys = jax.random.split(self.key, n + 1)
        self.key = keys[0]
        return keys[1:]


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


# ---- safe_opax/la_mbda/exploration.py (OpaxExploration and make_exploration cut: they need the actor-critic and omegaconf) ----
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


class UniformExploration(Exploration):
    def __init__(self, action_dim: int):
        self.action_dim = action_dim

    def get_policy(self) -> Policy:
        return lambda state, key: jax.random.uniform(key, (self.action_dim,))


# ---- safe_opax/la_mbda/la_mbda.py (policy, AgentState, LaMBDA.__call__, preprocess) ----
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


class LaMBDA:
    # __init__ (replay buffer, world model, learners, actor-critic from the omegaconf config) is cut; scaffolding below sets the attributes __call__ uses
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


# ---- scaffolding: a tiny world model with the infer_state interface, and an agent wired as LaMBDA.__init__ does ----
class _Cell(eqx.Module):  # scaffolding: rssm.RSSM's init state
    init: State  # scaffolding


class _WorldModel(eqx.Module):  # scaffolding: stands in for la_mbda.world_model.WorldModel
    cell: _Cell  # scaffolding
    w: jax.Array  # scaffolding

    def infer_state(self, state, observation, action, key):  # scaffolding: same signature as WorldModel.infer_state
        h = jnp.tanh(observation.reshape(-1) @ self.w + state.deterministic)  # scaffolding
        z = h[:4] + 0.01 * jax.random.normal(key, (4,)) + action.sum()  # scaffolding
        return State(z, h)  # scaffolding


action_dim, parallel_envs = 2, 2  # scaffolding
agent = LaMBDA.__new__(LaMBDA)  # scaffolding: LaMBDA.__init__ needs the full config; set what __call__ reads
agent.prng = PRNGSequence(0)  # scaffolding
agent.model = _WorldModel(_Cell(State(jnp.zeros(4), jnp.zeros(8))), jnp.ones((8 * 8 * 3, 8)) * 0.01)  # scaffolding
agent.exploration = UniformExploration(action_dim)  # scaffolding: config.agent.exploration_strategy == "uniform"
agent.actor_critic = None  # scaffolding: only used after exploration_steps
agent.state = AgentState.init(parallel_envs, agent.model.cell, action_dim)  # as in LaMBDA.__init__
agent.should_train = Count(1000, parallel_envs)  # scaffolding: train_every
agent.should_explore = Until(5000, parallel_envs)  # scaffolding: exploration_steps, still exploring
agent.replay_buffer = None  # scaffolding: train=False below, never read
obs = np.random.default_rng(0).integers(0, 255, (parallel_envs, 8, 8, 3)).astype(np.float32)  # scaffolding: small images
for _ in range(5):  # scaffolding: 5 environment steps
    actions = agent(obs)  # scaffolding
_report({"jit(policy)"}, 5)  # scaffolding
