# source: https://github.com/deep-learning-indaba/indaba-pracs-2024/blob/db560efcdcbff20ad6cbea2cff25202793214bc0/practicals/RL_2048/From_Zero_to_2048_Building_RL_environment_with_JAX_(Intermediate_Level).ipynb
# expect: trace-time-error at line 55
# runtime: ERROR TracerBoolConversionError
# why: shift_up moves the non-zero tiles with a Python for loop and `if col[i] != 0`; it works eagerly (cell 23) but under jax.jit (cell 24) col is traced, so the comparison cannot be turned into a Python bool and raises TracerBoolConversionError.
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
# cells 9-21 (random cells and the board generator) cut  # scaffolding
# cell 22
def shift_up(col: Array) -> Array:
    # Initialize a pointer to keep track of the next position to insert a non-zero element
    j = 0

    # Iterate over the array and place all non-zero elements to the left
    for i in range(len(col)):
        if col[i] != 0:
            col = col.at[j].set(col[i])  # Place non-zero at the next free position
            j += 1 # Prepare next position

    # Fill the remaining positions with zeros
    while j < len(col):
        col = col.at[j].set(0)
        j += 1

    return col
# cell 23
# Test shift_up
board_col = jnp.array([0, 2, 0, 2])
updated_col = shift_up(board_col)
print(updated_col)
_err = None  # scaffolding
# cell 24
# Test jitting shift_up
try:
  board_col = jnp.array([0, 2, 0, 2])
  shift_up_jit = jax.jit(shift_up)
  updated_col = shift_up_jit(board_col)
  print(updated_col)
except Exception as e:
  print(f"An error occurred: {e}")
  _err = e  # scaffolding
# cells 25-28 (the lax.cond / lax.scan / lax.while_loop rewrite) are the fixed file  # scaffolding
print(f"ERROR {type(_err).__name__}") if _err is not None else _report({"jit(shift_up)"}, 1)  # scaffolding
