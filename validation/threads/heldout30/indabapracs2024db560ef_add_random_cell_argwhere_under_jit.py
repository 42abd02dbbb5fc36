# source: https://github.com/deep-learning-indaba/indaba-pracs-2024/blob/db560efcdcbff20ad6cbea2cff25202793214bc0/practicals/RL_2048/From_Zero_to_2048_Building_RL_environment_with_JAX_(Intermediate_Level).ipynb
# expect: trace-time-error at line 56
# runtime: ERROR ConcretizationTypeError
# why: the first approach picks an empty tile with jnp.argwhere(board == 0), whose output size depends on the board's values; it works eagerly (cell 15) but under jax.jit (cell 16) argwhere without size= raises ConcretizationTypeError.
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
# cells 9-13 (numpy vs jax random and mutability demos) cut  # scaffolding
# cell 14
# First approach
def add_random_cell(board: Board, key: PRNGKey) -> Board:

    # Generate a new key
    key, subkey = jax.random.split(key)

    # Select position of the new random cell
    zero_indices = jnp.argwhere(board == 0)
    tile_idx = jax.random.choice(
        key, jnp.arange(len(zero_indices))
    )

    # Choose the value of the new cell: 2 with probability 90% or 4 with probability of 10%
    cell_value = jax.random.choice(
        subkey, jnp.array([2, 4]), p=jnp.array([0.9, 0.1])
    )
    board = board.at[tuple(zero_indices[tile_idx])].set(cell_value)

    return board
# cell 15
# Test add_random_cell
board=jnp.array(
    [
        [ 2,  2,  0,  0],
        [ 4,  8, 16,  0],
        [16,  0, 32,  0],
        [32, 64,  0, 64]
    ]
)
key=jax.random.PRNGKey(0)
board=add_random_cell(board, key)
print(board)
_err = None  # scaffolding
# cell 16
# Jitted method
try:
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
except Exception as e:
  print(f"An error occurred: {e}")
  _err = e  # scaffolding
# cells 17-18 (the exercise template and its test) cut; cell 19, the solution, is the fixed file  # scaffolding
print(f"ERROR {type(_err).__name__}") if _err is not None else _report({"jit(add_random_cell)"}, 1)  # scaffolding
