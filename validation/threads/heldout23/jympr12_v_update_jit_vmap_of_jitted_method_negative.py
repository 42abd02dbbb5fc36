# source: https://github.com/RPegoud/jym/pull/12
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: v_update = jit(vmap(agent.update)) wraps a method already jitted with static self; the agent is one object, so 5 batched updates compile once.
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
# RPegoud/jym PR #12, before the PR: notebook cell builds v_update = jit(vmap(agent.update)) over a method that is itself jitted with static self
from abc import ABC, abstractmethod  # scaffolding
from functools import partial

import haiku as hk
import jax.numpy as jnp
from jax import jit, random, vmap


class BaseAgent(ABC):
    def __init__(
        self,
        key,
        n_states,
        n_actions,
        discount,
    ) -> None:
        self.prng = hk.PRNGSequence(key)
        self.n_states = n_states
        self.n_actions = n_actions
        self.discount = discount

    @abstractmethod
    def update(self):
        pass


class Expected_Sarsa(BaseAgent):
    def __init__(self, key, n_states, n_actions, discount, learning_rate) -> None:
        super(Expected_Sarsa, self).__init__(
            key,
            n_states,
            n_actions,
            discount,
        )

        self.learning_rate = learning_rate

    @partial(jit, static_argnums=(0,))
    def softmax_prob_distr(
        self,
        q_values,
    ):
        return jnp.divide(
            jnp.exp(q_values),
            jnp.sum(
                jnp.exp(q_values),
            ),
        )

    @partial(jit, static_argnums=(0,))
    def update(
        self,
        state,
        action,
        reward,
        done,
        next_state,
        q_values,
    ):
        next_q_values = q_values[tuple(next_state)]
        target = q_values[tuple(jnp.append(state, action))]
        target += self.learning_rate * (
            reward
            + self.discount
            * jnp.sum(
                next_q_values
                * self.softmax_prob_distr(
                    next_q_values,
                ),
            )
            - target
        )
        return q_values.at[tuple(jnp.append(state, action))].set(target)


SEED = 2
GRID_SIZE = jnp.array([8, 12])
N_STATES = jnp.prod(GRID_SIZE)
N_ACTIONS = 4
DISCOUNT = 0.9
LEARNING_RATE = 0.1

key = random.PRNGKey(SEED)
agent = Expected_Sarsa(
    key,
    N_STATES,
    N_ACTIONS,
    DISCOUNT,
    LEARNING_RATE,
)

v_update = jit(vmap(
                agent.update,
                in_axes=(0, 0, 0, 0, 0, -1),
                # iterate through the last dimension of
                # agent.update's output (i.e. batch dim)
                out_axes=-1,
                axis_name="batch_axis",
                ))

N_ENV = 30  # scaffolding: a few batched updates as parallel_rollout would make
q_values = jnp.zeros((8, 12, N_ACTIONS, N_ENV))  # scaffolding
for t in range(5):  # scaffolding
    k1, k2, key = random.split(key, 3)  # scaffolding
    state = random.randint(k1, (N_ENV, 2), 0, 8)  # scaffolding
    next_state = random.randint(k2, (N_ENV, 2), 0, 8)  # scaffolding
    action = jnp.full((N_ENV,), t % N_ACTIONS)  # scaffolding
    reward = jnp.zeros((N_ENV,), jnp.int32)  # scaffolding
    done = jnp.zeros((N_ENV,), bool)  # scaffolding
    q_values = v_update(state, action, reward, done, next_state, q_values)  # scaffolding
_report({"jit(update)", "jit(vmap(update))", "jit(softmax_prob_distr)"}, 5)  # scaffolding
