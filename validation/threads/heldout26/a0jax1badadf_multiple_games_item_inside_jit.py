# source: https://github.com/NTT123/a0-jax/commit/1badadf05a11a9ff358561cf18c239d0b4420102
# expect: trace-time-error at line 211
# runtime: ERROR ConcretizationTypeError
# why: before the commit the jitted agent_vs_agent_multiple_games turns the win/draw/loss sums into Python ints with .item() inside the trace (added the day before in 'fix count type'), so the first evaluation fails while tracing.
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


"""
Human vs AI play
"""

import pickle
import random
import types  # scaffolding: SimpleNamespace stand-ins for modules that are not installed or were cut
import warnings
from functools import partial
from typing import NamedTuple, Tuple, TypeVar

import chex
import jax
import jax.numpy as jnp

pax = types.SimpleNamespace(pure=lambda f: f)  # scaffolding: the pax library is not installed; pax.pure works on copies, here the env inside jit is already a fresh traced copy
improve_policy_with_mcts = recurrent_fn = None  # scaffolding: tree_search (mctx) is not installed; only used when MCTS is enabled
T = TypeVar("T")


@jax.tree_util.register_pytree_node_class
class Enviroment:  # scaffolding: stand-in for games/connect_two_game.Connect2Game (a pax.Module): a 4-cell line, two in a row wins
    def __init__(self, board=None, who_play=None, count=None, done=None):  # scaffolding
        self.board = jnp.zeros((4,), jnp.int32) if board is None else board  # scaffolding
        self.who_play = jnp.array(1, jnp.int32) if who_play is None else who_play  # scaffolding
        self.count = jnp.array(0, jnp.int32) if count is None else count  # scaffolding
        self.done = jnp.array(False) if done is None else done  # scaffolding

    def tree_flatten(self):  # scaffolding
        return (self.board, self.who_play, self.count, self.done), None  # scaffolding

    @classmethod  # scaffolding
    def tree_unflatten(cls, aux, children):  # scaffolding
        return cls(*children)  # scaffolding

    def reset(self):  # scaffolding
        self.__init__()  # scaffolding

    def step(self, action):  # scaffolding
        board = self.board.at[action].set(jnp.where(self.board[action] == 0, self.who_play, self.board[action]))  # scaffolding
        won = jnp.any((board[:-1] == self.who_play) & (board[1:] == self.who_play))  # scaffolding
        env = Enviroment(board, -self.who_play, self.count + 1, won | (self.count + 1 >= 4))  # scaffolding
        return env, jnp.where(won, 1, 0).astype(jnp.int32)  # scaffolding

    def is_terminated(self):  # scaffolding
        return self.done  # scaffolding

    def max_num_steps(self):  # scaffolding
        return 4  # scaffolding

    def canonical_observation(self):  # scaffolding
        return (self.board * self.who_play).astype(jnp.float32)  # scaffolding


E = Enviroment  # scaffolding


def replicate(value: T, repeat: int) -> T:
    """Replicate along the first axis."""
    return jax.tree_util.tree_map(lambda x: jnp.stack([x] * repeat), value)


@pax.pure
def reset_env(env: E) -> E:
    """Return a reset enviroment."""
    env.reset()
    return env


@jax.jit
def env_step(env: E, action: chex.Array) -> Tuple[E, chex.Array]:
    """Execute one step in the enviroment."""
    env, reward = env.step(action)
    return env, reward


class PlayResults(NamedTuple):
    win_count: int
    draw_count: int
    loss_count: int


@partial(
    jax.jit,
    static_argnames=("num_simulations", "disable_mcts", "random_action"),
)
def play_one_move(
    agent,
    env: Enviroment,
    rng_key: chex.Array,
    disable_mcts: bool = False,
    num_simulations: int = 1024,
    random_action: bool = True,
):
    """Play a move using agent's policy"""
    if disable_mcts:
        action_logits, value = agent(env.canonical_observation())
        action_weights = jax.nn.softmax(action_logits, axis=-1)
    else:
        batched_env: Enviroment = replicate(env, 1)  # type: ignore
        rng_key, rng_key_1 = jax.random.split(rng_key)  # type: ignore
        policy_output = improve_policy_with_mcts(
            agent,
            batched_env,
            rng_key_1,  # type: ignore
            rec_fn=recurrent_fn,
            num_simulations=num_simulations,
        )
        action_weights = policy_output.action_weights[0]
        root_idx = policy_output.search_tree.ROOT_INDEX
        value = policy_output.search_tree.node_values[0, root_idx]

    if random_action:
        action = jax.random.categorical(rng_key, jnp.log(action_weights), axis=-1)
    else:
        action = jnp.argmax(action_weights)
    return action, action_weights, value


def agent_vs_agent(
    agent1,
    agent2,
    env: Enviroment,
    rng_key: chex.Array,
    disable_mcts: bool = False,
    num_simulations_per_move: int = 1024,
):
    """A game of agent1 vs agent2."""

    def cond_fn(state):
        env, step = state[0], state[-1]
        # pylint: disable=singleton-comparison
        not_ended = env.is_terminated() == False
        not_too_long = step <= env.max_num_steps()
        return jnp.logical_and(not_ended, not_too_long)

    def loop_fn(state):
        env, a1, a2, _, rng_key, turn, step = state
        rng_key_1, rng_key = jax.random.split(rng_key)
        action, _, _ = play_one_move(
            a1,
            env,
            rng_key_1,
            disable_mcts=disable_mcts,
            num_simulations=num_simulations_per_move,
        )
        env, reward = env_step(env, action)
        state = (env, a2, a1, turn * reward, rng_key, -turn, step + 1)
        return state

    state = (
        reset_env(env),
        agent1,
        agent2,
        jnp.array(0),
        rng_key,
        jnp.array(1),
        jnp.array(1),
    )
    state = jax.lax.while_loop(cond_fn, loop_fn, state)
    return state[3]


@partial(jax.jit, static_argnums=(4, 5, 6))
def agent_vs_agent_multiple_games(
    agent1,
    agent2,
    env,
    rng_key,
    disable_mcts: bool = False,
    num_simulations_per_move: int = 1024,
    num_games: int = 128,
) -> PlayResults:
    """Fast agent vs agent evaluation."""
    rng_key_list = jax.random.split(rng_key, num_games)
    rng_keys = jnp.stack(rng_key_list, axis=0)  # type: ignore
    avsa = partial(
        agent_vs_agent,
        disable_mcts=disable_mcts,
        num_simulations_per_move=num_simulations_per_move,
    )
    batched_avsa = jax.vmap(avsa, in_axes=(None, None, 0, 0))
    envs = replicate(env, num_games)
    results = batched_avsa(agent1, agent2, envs, rng_keys)
    win_count = jnp.sum(results == 1).item()
    draw_count = jnp.sum(results == 0).item()
    loss_count = jnp.sum(results == -1).item()
    return PlayResults(
        win_count=win_count, draw_count=draw_count, loss_count=loss_count
    )


@jax.tree_util.register_pytree_node_class
class _Agent:  # scaffolding: stand-in for the pax policy/value network (agent(obs) -> (action_logits, value))
    def __init__(self, w):  # scaffolding
        self.w = w  # scaffolding

    def __call__(self, x):  # scaffolding
        return x @ self.w, jnp.tanh(jnp.sum(x))  # scaffolding

    def eval(self):  # scaffolding
        return self  # scaffolding

    def tree_flatten(self):  # scaffolding
        return (self.w,), None  # scaffolding

    @classmethod  # scaffolding
    def tree_unflatten(cls, aux, children):  # scaffolding
        return cls(*children)  # scaffolding


env = Enviroment()  # scaffolding
agent = _Agent(jax.random.normal(jax.random.PRNGKey(0), (4, 4)))  # scaffolding
old_agent = _Agent(jax.random.normal(jax.random.PRNGKey(1), (4, 4)))  # scaffolding
rng_key_2, rng_key_3 = jax.random.split(jax.random.PRNGKey(2))  # scaffolding
try:  # scaffolding
    # new agent is player 1
    result_1: PlayResults = agent_vs_agent_multiple_games(
        agent.eval(),
        old_agent,
        env,
        rng_key_2,
        True,  # scaffolding: disable_mcts (mctx is not installed; train_agent.py leaves MCTS on)
        num_simulations_per_move=32,
    )
    # old agent is player 1
    result_2: PlayResults = agent_vs_agent_multiple_games(
        old_agent,
        agent.eval(),
        env,
        rng_key_3,
        True,  # scaffolding: disable_mcts, as above
        num_simulations_per_move=32,
    )
    print(
        "  evaluation      {} win - {} draw - {} loss".format(
            result_1.win_count + result_2.loss_count,
            result_1.draw_count + result_2.draw_count,
            result_1.loss_count + result_2.win_count,
        )
    )
    _report({"jit(agent_vs_agent_multiple_games)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
