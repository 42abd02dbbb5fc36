# source: https://github.com/deep-learning-indaba/indaba-pracs-2024/blob/db560efcdcbff20ad6cbea2cff25202793214bc0/practicals/RL_2048/From_Zero_to_2048_Building_RL_environment_with_JAX_(Intermediate_Level).ipynb
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the practical's rewrite moves the branch into lax.cond inside a lax.scan over positions and the zero-filling into lax.while_loop, so the jitted shift_up traces and compiles once.
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
# cells 9-24 (including the Python-loop shift_up that fails under jit) cut  # scaffolding
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
# cell 26 (a first scan-only shift_up, redefined in cell 27) cut  # scaffolding
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
_report({"jit(shift_up)"}, 1)  # scaffolding
