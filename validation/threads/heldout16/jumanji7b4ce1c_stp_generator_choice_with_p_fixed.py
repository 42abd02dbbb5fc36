# source: https://github.com/instadeepai/jumanji/commit/7b4ce1c6a95b456701ffb8b7b9b9092ac58131b9
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the commit samples from all MOVES with jax.random.choice(..., p=valid_moves_mask), a fixed-shape operation, so the jitted reset compiles once for 2 calls.

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


import abc
from typing import Tuple

import chex
import jax
from jax import numpy as jnp

EMPTY_TILE = 0  # jumanji/environments/logic/sliding_tile_puzzle/constants.py
UP = [-1, 0]
DOWN = [1, 0]
LEFT = [0, -1]
RIGHT = [0, 1]

MOVES = jnp.array([UP, RIGHT, DOWN, LEFT])


class Generator(abc.ABC):
    @property
    @abc.abstractmethod
    def grid_size(self) -> int:
        """Size of the puzzle (n x n grid)."""

    @abc.abstractmethod
    def __call__(self, key: chex.PRNGKey) -> Tuple[chex.Array, Tuple[int, int]]:
        """Generate a problem instance."""


# jumanji/environments/logic/sliding_tile_puzzle/generator.py (after the commit; docstrings and RandomGenerator cut)
class SolvableSTPGenerator(Generator):

    def __init__(self, grid_size: int, num_shuffle_moves: int = 100):
        self._grid_size = grid_size
        self.num_shuffle_moves = num_shuffle_moves

    @property
    def grid_size(self) -> int:
        return self._grid_size

    def __call__(self, key: chex.PRNGKey) -> Tuple[chex.Array, chex.Array]:
        # Start with a solved puzzle
        puzzle = jnp.append(jnp.arange(1, self._grid_size**2), EMPTY_TILE).reshape(
            (self._grid_size, self._grid_size)
        )
        empty_tile_position = jnp.array([self._grid_size - 1, self._grid_size - 1])

        # Perform a number of shuffle moves
        for _ in range(self.num_shuffle_moves):
            key, subkey = jax.random.split(key)
            empty_tile_position, puzzle = self._make_random_move(
                subkey, puzzle, empty_tile_position
            )

        return puzzle, empty_tile_position

    def _swap_tiles(
        self, puzzle: chex.Array, pos1: chex.Array, pos2: chex.Array
    ) -> chex.Array:
        temp = puzzle[tuple(pos1)]
        puzzle = puzzle.at[tuple(pos1)].set(puzzle[tuple(pos2)])
        puzzle = puzzle.at[tuple(pos2)].set(temp)
        return puzzle

    def _make_random_move(
        self, key: chex.PRNGKey, puzzle: chex.Array, empty_tile_position: chex.Array
    ) -> Tuple[chex.Array, chex.Array]:
        key, subkey = jax.random.split(key)
        new_positions = empty_tile_position + MOVES

        # Determine valid moves (known-size boolean array)
        valid_moves_mask = jnp.all(
            (new_positions >= 0) & (new_positions < self._grid_size), axis=-1
        )
        move = jax.random.choice(key, MOVES, shape=(), p=valid_moves_mask)
        new_empty_tile_position = empty_tile_position + move
        # Swap the empty tile with the tile at the new position using _swap_tiles
        updated_puzzle = self._swap_tiles(
            puzzle, empty_tile_position, new_empty_tile_position
        )

        return new_empty_tile_position, updated_puzzle


# scaffolding: the generator runs inside the jitted SlidingTilePuzzle.reset; two resets with new keys
generator = SolvableSTPGenerator(grid_size=3, num_shuffle_moves=20)  # scaffolding: 20 moves instead of the default 100
reset = jax.jit(lambda key: generator(key))
calls = 0
try:  # scaffolding
    for seed in (0, 1):
        puzzle, empty_tile_position = reset(jax.random.PRNGKey(seed))
        calls += 1
    _report({"jit(<lambda>)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
