# source: https://github.com/sotetsuk/pgx/pull/463
# expect: trace-time-error at line 39
# runtime: ERROR TracerBoolConversionError
# why: _player_position branches with a Python `if player != -1` and returns jnp.where(mask)[0] (a data-dependent size); jitting it, as the PR does, makes player a tracer and the `if` raises TracerBoolConversionError.
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


def _player_position(player: jnp.ndarray, state: State) -> jnp.ndarray:
    if player != -1:
        return jnp.where(state.shuffled_players == player)[0]
    else:
        return jnp.full(1, -1, dtype=np.int8)


state = State(shuffled_players=jnp.array([0, 3, 1, 2], dtype=jnp.int8))  # scaffolding
print(_player_position(jnp.int8(3), state))  # scaffolding: works without jit
try:  # scaffolding
    jax.jit(_player_position)(jnp.int8(3), state)  # scaffolding: the PR decorates it with @jax.jit
    _report({"jit(_player_position)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
