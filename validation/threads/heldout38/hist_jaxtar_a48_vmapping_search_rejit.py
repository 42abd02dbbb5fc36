# source: https://github.com/tinker495/JAxtar/commit/a48cc5567b0ab8f0389ac31ca811174204ea2ef1
# expect: jit-in-loop-or-body at line 68
# runtime: COMPILES 4 CALLS 8
# why: vmapping_search() wraps star_fn in a fresh jax.jit(jax.vmap(...)) on every call, so each search run with the same function and batch size compiles again.

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


def astar(solve_config, state):  # scaffolding: stand-in for the A* search built by astar_builder
    def body(carry):
        i, s = carry
        return i + 1, jnp.roll(s, 1) + (s == solve_config)

    return jax.lax.while_loop(lambda c: c[0] < 8, body, (0, state))[1]


def vmapping_search(
    puzzle: Puzzle,
    star_fn: callable,
    vmap_size: int,
    show_compile_time: bool = False,
):
    """
    Vmap the search function over the batch dimension.
    """

    empty_states = puzzle.State.default((vmap_size,))
    empty_solve_configs = puzzle.SolveConfig.default((vmap_size,))
    vmapped_star = jax.jit(jax.vmap(star_fn, in_axes=(0, 0)))
    if show_compile_time:
        print("initializing vmapped jit")
        start = time.time()
    vmapped_star(empty_solve_configs, empty_states)
    if show_compile_time:
        end = time.time()
        print(f"Compile Time: {end - start:6.2f} seconds")
        print("JIT compiled\n\n")
    return vmapped_star


puzzle = Puzzle()  # scaffolding
calls = 0  # scaffolding
for run in range(4):  # scaffolding: four search runs with the same star_fn and vmap_size
    vmapped_search = vmapping_search(puzzle, astar, 8)
    vmapped_search(puzzle.SolveConfig.default((8,)) + run, puzzle.State.default((8,)))  # scaffolding
    calls += 2  # scaffolding: the warm-up call inside vmapping_search and the search itself
_report({"jit(astar)"}, calls)  # scaffolding
