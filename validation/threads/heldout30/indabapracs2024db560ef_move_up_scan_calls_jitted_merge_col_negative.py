# source: https://github.com/deep-learning-indaba/indaba-pracs-2024/blob/db560efcdcbff20ad6cbea2cff25202793214bc0/practicals/RL_2048/From_Zero_to_2048_Building_RL_environment_with_JAX_(Intermediate_Level).ipynb
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: the jitted move_up scans over columns with move_up_col, whose body calls the separately jitted merge_col and the plain shift_up; inside move_up's trace the inner jit is simply inlined, so merge_col (cell 34) and move_up (cell 38) compile once each: 2 compiles for 2 calls.
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
# cells 9-24 (random cells, the Python-loop shift_up) cut  # scaffolding
# cell 25
def shift_nonzero_element(carry: Tuple) -> Tuple[Array, int]:
    """True function definition"""
    # Unpack the tuple to get the column, current insertion index, and the index of the element to check
    col, j, i = carry

    # Set the value at the current insertion index to the value of the element at index i
    col = col.at[j].set(col[i])

    # Increment the insertion index for the next potential non-zero element
    j += 1

    return col, j

def shift_column_elements_up(carry: Tuple, i: int) -> Tuple[Array, None]:
    # Unpack the tuple to get the current column and the insertion index
    col, j = carry

    # Conditionally shift the non-zero element at index i to the insertion index
    # If the element at index i is zero, just pass the current state through
    col, j = jax.lax.cond(
        col[i] != 0, # condition
        shift_nonzero_element, # true_fn
        lambda col_j_i: col_j_i[:2], # false_fn
        (col, j, i) # vars
    )

    return (col, j), None
# cell 26 (an intermediate scan-only shift_up, redefined in cell 27) cut  # scaffolding
# cell 27
def fill_with_zero(carry: Tuple[Array, int]) -> Tuple[Array, int]:
    """Define bofy_fn of the while loop"""
    # Unpack the tuple to get the current column and the insertion index
    col, j = carry

    # Set the current position j in the column to zero
    col = col.at[j].set(0)

    # Increment the insertion index to move to the next position
    j += 1

    return col, j

def shift_up(col: Array) -> Array:
    # Initialize the insertion index to zero
    j = 0

    # Scan through the column, shifting non-zero elements upwards
    (col, j), _ = jax.lax.scan(
        f=shift_column_elements_up,
        init=(col, j),
        xs=jnp.arange(len(col))
    )

    # After all non-zero elements are shifted up, fill the remaining positions with zeros
    # This while loop continues until all positions from j to the end of the column are set to zero
    col, j = jax.lax.while_loop(
        lambda col_j: col_j[1] < len(col_j[0]), # condition function
        fill_with_zero, # body_fn (true_fn)
        (col, j) #init_vars
    )

    return col
# cell 28
board_col = jnp.array([0, 2, 0, 2])
shift_up_jit = jax.jit(shift_up)
updated_col = shift_up_jit(board_col)
print(updated_col)
# cell 29
def merge_elements(carry: Tuple[jnp.ndarray, float, int]) -> Tuple[jnp.ndarray, float]:
    col, reward, i = carry  # Unpack the input tuple into the column, current reward, and index
    new_col_i = 2 * col[i]  # Double the value of the element at index i
    col = col.at[i].set(new_col_i)  # Set the doubled value at index i
    col = col.at[i + 1].set(0)  # Set the value at index i + 1 to zero
    reward += new_col_i  # Add the value of the merged element to the reward
    return col, reward
# cells 30-31 (the exercise template for merge_equal_elements and its test) cut  # scaffolding
# cell 32
# @title Solution
def merge_equal_elements(carry: Tuple[jnp.ndarray, float], i: int) -> Tuple[Tuple[jnp.ndarray, float], None]:
    col, reward = carry
    col, reward = jax.lax.cond(
        (col[i] != 0) & (col[i] == col[i + 1]),  # Condition: elements at index i and i+1 are equal and not zero
        merge_elements,  # Function to call if the condition is true
        lambda col_reward_i: col_reward_i[:2],  # Function to call if the condition is false (pass through)
        (col, reward, i),
    )
    return (col, reward), None
# cell 33
@jax.jit
def merge_col(col: jnp.ndarray) -> Tuple[jnp.ndarray, float]:
    reward = 0.0
    elements_indices = jnp.arange(len(col) - 1)
    (col, reward), _ = jax.lax.scan(
        f=merge_equal_elements, init=(col, reward), xs=elements_indices
    )
    return col, reward
# cell 34
print("Initial column: ",board_col)

shift_up_jit = jax.jit(shift_up)
updated_col = shift_up_jit(board_col)
print("After shifting the elements: ",updated_col)

updated_col = merge_col(updated_col)

print("After merging equal elements: ",updated_col[0], "with a reward equals: ",updated_col[1])
# cell 35
def move_up_col(carry: Tuple[jnp.ndarray, float], c: int) -> Tuple[Tuple[jnp.ndarray, float], None]:
    board, additional_reward = carry
    col = board[:, c]
    col = shift_up(col)  # In example: [4, 4, 2, 2] -> [4, 4, 2, 2]
    col, reward = merge_col(col)  # In example: [4, 4, 2, 2] -> [8, 0, 4, 0]
    col = shift_up(col)  # In example: [8, 0, 4, 0] -> [8, 4, 0, 0]
    additional_reward += reward
    return (board.at[:, c].set(col), additional_reward), None
# cell 36
@jax.jit
def move_up(board: Board) -> Tuple[Board, float]:
    """Move up."""
    additional_reward = 0.0 # Initialize the reward to zero
    col_indices = jnp.arange(board.shape[0])  # Board of size 4 -> [0, 1, 2, 3]
    (board, additional_reward), _ = jax.lax.scan(
        f=move_up_col,
        init=(board, additional_reward),
        xs=col_indices,
    )
    return board, additional_reward
# cell 37
def move_down(board: jnp.ndarray) -> Tuple[jnp.ndarray, float]:
    """Move down."""
    board, additional_reward = move_up(
        board=jnp.flip(board, 0)
    )
    return jnp.flip(board, 0), additional_reward

def move_left(board: jnp.ndarray) -> Tuple[jnp.ndarray, float]:
    """Move left."""
    board, additional_reward = move_up(
        board=jnp.rot90(board, k=-1)
    )
    return jnp.rot90(board, k=1), additional_reward

def move_right(board: jnp.ndarray) -> Tuple[jnp.ndarray, float]:
    """Move right."""
    board, additional_reward = move_up(
        board=jnp.rot90(board, k=1)
    )
    return jnp.rot90(board, k=-1), additional_reward
# cell 38
board = jnp.array([
    [4, 2, 2, 0],
    [4, 8, 2, 4],
    [4, 8, 2, 4],
    [4, 8, 0, 0]
  ])
board, reward = move_up(board)
print("After moving up: \n",board,"\n Reward: ",reward )
# cells 39+ (the Environment class, which needs jumanji) cut  # scaffolding
_report({"jit(move_up)", "jit(merge_col)"}, 2)  # scaffolding: cell 34 calls merge_col, cell 38 calls move_up (whose scan body calls the jitted merge_col again, inlined)
