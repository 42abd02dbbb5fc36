# source: https://github.com/deep-learning-indaba/indaba-pracs-2024/blob/db560efcdcbff20ad6cbea2cff25202793214bc0/practicals/RL_2048/From_Zero_to_2048_Building_RL_environment_with_JAX_(Intermediate_Level).ipynb
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the practical's solution samples the tile with jax.random.choice over all 16 positions, weighted by the empty-cell mask, and converts it with divmod, so every shape is static and the jitted add_random_cell compiles and runs.
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

# cell 1 (imports; only those the kept cells use; jumanji, hydra, pygame, huggingface_hub cut)  # scaffolding
import jax
import jax.numpy as jnp
import numpy as np
from chex import Array, Numeric, PRNGKey
from typing_extensions import TypeAlias
from typing import NamedTuple, Tuple, Optional, Sequence
# cells 2-7 (setup, rendering helpers, random numbers and counter examples) cut  # scaffolding
# cell 8
Board: TypeAlias = Array

class State(NamedTuple):
    board: Board
    step_count: Numeric
    action_mask: Array
    key: PRNGKey
    score: Numeric

class Observation(NamedTuple):
    board: Board
    action_mask: Array
# cells 9-18 (demos, the argwhere first approach that fails under jit, the exercise) cut  # scaffolding
# cell 19
# @title Solution
def add_random_cell(board: Board, key: PRNGKey) -> Board:
    # Generate a new key
    key, subkey = jax.random.split(key)

    # Select position of the new random cell
    empty_flatten_board = jnp.ravel(board == 0)
    tile_idx = jax.random.choice(
        key, jnp.arange(len(empty_flatten_board)), p=empty_flatten_board
    )
    # Convert the selected tile's location in the flattened array to its position on the board.
    board_size=board.shape[0]
    position = jnp.divmod(tile_idx, board_size)

    # Choose the value of the new cell: 2 with probability 90% or 4 with probability of 10%
    cell_value = jax.random.choice(
        subkey, jnp.array([2, 4]), p=jnp.array([0.9, 0.1])
    )
    board = board.at[position].set(cell_value)

    return board

# Jitted method
board=jnp.array(
    [
        [ 2,  2,  0,  0],
        [ 4,  8, 16,  0],
        [16,  0, 32,  0],
        [32, 64,  0, 64]
    ]
)
key=jax.random.PRNGKey(0)
add_random_cell_jit = jax.jit(add_random_cell)
board = add_random_cell_jit(board, key)
print(board)
_report({"jit(add_random_cell)"}, 1)  # scaffolding
