# source: https://github.com/sotetsuk/pgx/commit/5c0619a7796bda8855ef3d1908b6c72b5d100839
# expect: trace-time-error at line 90
# runtime: ERROR TypeError
# why: the Hex board defaults to int16 while set_place_id = action + 1 is int32, so inside the jitted step the merge cond's branches return int32 and int16 boards and lax.cond raises TypeError while tracing.

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
from dataclasses import field  # scaffolding
from functools import partial

import jax
import jax.numpy as jnp
from flax.struct import dataclass

FALSE = jnp.bool_(False)
TRUE = jnp.bool_(True)


def _d(make):  # scaffolding: Python 3.11 rejects array defaults, so each default is a factory
    return field(default_factory=make)


class Env:  # scaffolding: pgx.core.Env.init/step cut to the parts a legal step runs
    def init(self, key):
        key, subkey = jax.random.split(key)
        state = self._init(subkey)
        state = state.replace(_rng_key=key)  # type: ignore
        observation = self.observe(state, state.current_player)
        return state.replace(observation=observation)  # type: ignore

    def step(self, state, action):
        # increment step count
        state = state.replace(steps=state.steps + 1)  # type: ignore
        state = jax.lax.cond(
            (state.terminated | state.truncated),
            lambda: state.replace(reward=jnp.zeros_like(state.reward)),
            lambda: self._step(state, action),
        )
        observation = self.observe(state, state.current_player)
        return state.replace(observation=observation)  # type: ignore

    def observe(self, state, player_id):
        obs = self._observe(state, player_id)
        return jax.lax.stop_gradient(obs)


# pgx/hex.py (before the commit)
@dataclass
class State:
    steps: jnp.ndarray = _d(lambda: jnp.int32(0))
    size: jnp.ndarray = _d(lambda: jnp.int8(11))
    current_player: jnp.ndarray = _d(lambda: jnp.int8(0))
    observation: jnp.ndarray = _d(lambda: jnp.zeros(11 * 11, dtype=jnp.bool_))
    reward: jnp.ndarray = _d(lambda: jnp.float32([0.0, 0.0]))
    terminated: jnp.ndarray = _d(lambda: FALSE)
    truncated: jnp.ndarray = _d(lambda: FALSE)
    legal_action_mask: jnp.ndarray = _d(lambda: jnp.ones(11 * 11, dtype=jnp.bool_))
    _rng_key: jax.Array = _d(lambda: jax.random.PRNGKey(0))
    # 0(black), 1(white)
    turn: jnp.ndarray = _d(lambda: jnp.int8(0))
    # 11x11 board
    # [[  0,  1,  2,  ...,  8,  9, 10],
    #  [ 11,  12, 13, ..., 19, 20, 21],
    #  .
    #  .
    #  .
    #  [110, 111, 112, ...,  119, 120]]
    board: jnp.ndarray = _d(lambda: -jnp.zeros(
        11 * 11, jnp.int16
    ))  # <0(oppo), 0(empty), 0<(self)


class Hex(Env):
    def __init__(
        self,
        *,
        auto_reset: bool = False,
        max_truncation_steps: int = -1,
        size: int = 11,
    ):
        assert isinstance(size, int)
        self.size = size

    def _init(self, key: jax.Array) -> State:
        return partial(init, size=self.size)(rng=key)

    def _step(self, state: State, action: jnp.ndarray) -> State:
        assert isinstance(state, State)
        return partial(step, size=self.size)(state, action)

    def _observe(
        self, state: State, player_id: jnp.ndarray
    ) -> jnp.ndarray:
        assert isinstance(state, State)
        return partial(observe, size=self.size)(state, player_id)


def init(rng: jax.Array, size: int) -> State:
    rng, subkey = jax.random.split(rng)
    current_player = jnp.int8(jax.random.bernoulli(subkey))
    return State(size=size, current_player=current_player)  # type:ignore


def step(state: State, action: jnp.ndarray, size: int) -> State:
    set_place_id = action + 1
    board = state.board.at[action].set(set_place_id)
    neighbour = _neighbour(action, size)

    def merge(i, b):
        adj_pos = neighbour[i]
        return jax.lax.cond(
            (adj_pos >= 0) & (b[adj_pos] > 0),
            lambda: jnp.where(b == b[adj_pos], set_place_id, b),
            lambda: b,
        )

    board = jax.lax.fori_loop(0, 6, merge, board)
    won = is_game_end(board, size, state.turn)
    reward = jax.lax.cond(
        won,
        lambda: jnp.float32([-1, -1]).at[state.current_player].set(1),
        lambda: jnp.zeros(2, jnp.float32),
    )

    legal_action_mask = board == 0
    state = state.replace(  # type:ignore
        current_player=1 - state.current_player,
        turn=1 - state.turn,
        board=board * -1,
        reward=reward,
        terminated=won,
        legal_action_mask=legal_action_mask,
    )

    return state


def observe(state: State, player_id: jnp.ndarray, size) -> jnp.ndarray:
    board = jax.lax.cond(
        player_id == state.current_player,
        lambda: state.board.reshape((size, size)),
        lambda: (state.board * -1).reshape((size, size)),
    )

    def make(color):
        return board * color > 0

    return jnp.stack(jax.vmap(make)(jnp.int8([1, -1])), 2)


def _neighbour(xy, size):
    x = xy // size
    y = xy % size
    xs = jnp.array([x, x + 1, x - 1, x + 1, x - 1, x])
    ys = jnp.array([y - 1, y - 1, y, y, y + 1, y + 1])
    on_board = (0 <= xs) & (xs < size) & (0 <= ys) & (ys < size)
    return jnp.where(on_board, xs * size + ys, -1)


def is_game_end(board, size, turn):
    top, bottom = jax.lax.cond(
        turn == 0,
        lambda: (board[:size], board[-size:]),
        lambda: (board[::size], board[size - 1 :: size]),
    )

    def check_same_id_exist(_id):
        return (_id > 0) & (_id == bottom).any()

    return jax.vmap(check_same_id_exist)(top).any()


# pgx/experimental/utils.py
def act_randomly(rng, state) -> jnp.ndarray:
    logits = jnp.log(state.legal_action_mask.astype(jnp.float16))
    return jax.random.categorical(rng, logits=logits, axis=1)


# tests/test_env.py::test_jit (for env "hex")
def test_jit():
    N = 2
    env = Hex()
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(env.step))
    key = jax.random.PRNGKey(0)
    keys = jax.random.split(key, N)

    state = init(keys)
    assert state.current_player.shape == (N,)

    action = act_randomly(key, state)

    try:  # scaffolding
        state = step(state, action)
        assert state.current_player.shape == (N,)
        _report({"jit(step)", "jit(init)"}, 2)  # scaffolding
    except Exception as e:  # scaffolding
        print(f"ERROR {type(e).__name__}")


test_jit()  # scaffolding
