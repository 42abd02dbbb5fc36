# source: https://github.com/tinker495/JAxtar/commit/a48cc5567b0ab8f0389ac31ca811174204ea2ef1
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: astar_builder builds jax.jit(astar) inside a function body, but the builder runs once and its returned jitted search is reused, so there is one compile for all searches.

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
import time
from typing import Any

import jax
import jax.numpy as jnp


class _Default:  # scaffolding: stand-in for puxle's xtructure State/SolveConfig dataclasses
    def __init__(self, n):
        self.n = n

    def default(self, shape=()):
        return jnp.zeros(tuple(shape) + (self.n,), jnp.int32)


class Puzzle:  # scaffolding: stand-in for puxle.Puzzle (a 9-tile board)
    State = _Default(9)
    SolveConfig = _Default(9)

    def batched_is_solved(self, solve_config, states):
        return jnp.all(states == solve_config, axis=-1)


def _astar_loop_builder(puzzle, heuristic, batch_size, max_nodes, pop_ratio, cost_weight):  # scaffolding: stand-in
    def init_loop_state(solve_config, start, **kwargs):
        return {"i": jnp.int32(0), "current": jnp.tile(start, (batch_size, 1))}

    def loop_condition(s):
        return s["i"] < 8

    def loop_body(s):
        return {"i": s["i"] + 1, "current": jnp.roll(s["current"], 1, axis=-1) + 1}

    return init_loop_state, loop_condition, loop_body


def astar_builder(
    puzzle: Puzzle,
    heuristic,
    batch_size: int = 1024,
    max_nodes: int = int(1e6),
    pop_ratio: float = jnp.inf,
    cost_weight: float = 1.0 - 1e-6,
    show_compile_time: bool = False,
):
    """
    Builds and returns a JAX-accelerated A* search function.
    """

    init_loop_state, loop_condition, loop_body = _astar_loop_builder(
        puzzle, heuristic, batch_size, max_nodes, pop_ratio, cost_weight
    )

    def astar(
        solve_config,
        start,
        **kwargs: Any,
    ):
        """
        astar is the implementation of the A* algorithm.
        """
        loop_state = init_loop_state(solve_config, start, **kwargs)
        loop_state = jax.lax.while_loop(loop_condition, loop_body, loop_state)
        states = loop_state["current"]  # scaffolding: was search_result.get_state(current)
        solved = puzzle.batched_is_solved(solve_config, states)
        return solved.any()  # scaffolding: was the SearchResult with solved/solved_idx set

    astar_fn = jax.jit(astar)
    empty_solve_config = puzzle.SolveConfig.default()
    empty_states = puzzle.State.default()

    if show_compile_time:
        print("initializing jit")
        start = time.time()

    # Pass empty states and target to JIT-compile the function with simple data.
    # Using actual puzzles would cause extremely long compilation times due to
    # tracing all possible functions. Empty inputs allow JAX to specialize the
    # compiled code without processing complex puzzle structures.
    astar_fn(empty_solve_config, empty_states)

    if show_compile_time:
        end = time.time()
        print(f"Compile Time: {end - start:6.2f} seconds")
        print("JIT compiled\n\n")

    return astar_fn


puzzle = Puzzle()  # scaffolding
astar_fn = astar_builder(puzzle, heuristic=None, batch_size=64)  # scaffolding: the CLI builds once per command
calls = 1  # scaffolding: the warm-up call inside astar_builder
for seed in range(4):  # scaffolding: four puzzles searched with the built function
    solved = astar_fn(puzzle.SolveConfig.default() + seed, puzzle.State.default())
    calls += 1  # scaffolding
_report({"jit(astar)"}, calls)  # scaffolding
