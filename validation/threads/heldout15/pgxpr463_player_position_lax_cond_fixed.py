# source: https://github.com/sotetsuk/pgx/pull/463
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the PR replaces the `if` and the unary jnp.where with jax.lax.cond and jnp.argmax and decorates the function with @jax.jit; it compiles once for three players.
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
from typing import NamedTuple  # scaffolding
import numpy as np
import jax
import jax.numpy as jnp


class State(NamedTuple):  # scaffolding: stand-in for the flax State dataclass (only shuffled_players is read)
    shuffled_players: jnp.ndarray  # scaffolding


@jax.jit
def _player_position(player: jnp.ndarray, state: State) -> jnp.ndarray:
    return jax.lax.cond(
        player != -1,
        lambda: jnp.int8(
            jnp.argmax(state.shuffled_players == player)
        ),  # playerと同じ要素のstate.shuffle_playersのindexを返す
        lambda: jnp.int8(-1),
    )


state = State(shuffled_players=jnp.array([0, 3, 1, 2], dtype=jnp.int8))  # scaffolding
calls = 0  # scaffolding
for p in (3, 0, -1):  # scaffolding
    print(_player_position(jnp.int8(p), state))  # scaffolding
    calls += 1  # scaffolding
_report({"jit(_player_position)"}, calls)  # scaffolding
