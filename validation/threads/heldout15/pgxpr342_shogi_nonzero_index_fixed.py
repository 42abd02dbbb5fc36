# source: https://github.com/sotetsuk/pgx/pull/342
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: the PR replaces `.item()` with `[0][0]`, so the king position stays a traced index and the jitted call compiles once.
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
import types  # scaffolding
import jax
import jax.numpy as jnp

KING = jnp.int8(7)


def _check_info(state, flipped_state, flipped_effect_boards):
    flipped_king_pos = (
        80 - jnp.nonzero(state.piece_board == KING, size=1)[0][0]
    )
    flipped_effecting_mask = flipped_effect_boards[
        :, flipped_king_pos
    ]  # (81,) 王に利いている駒の位置
    return jnp.flip(flipped_effecting_mask)  # scaffolding: the aigoma part is left out


piece_board = jnp.full(81, -1, dtype=jnp.int8).at[44].set(KING)  # scaffolding
state = types.SimpleNamespace(piece_board=piece_board)  # scaffolding
effect_boards = jax.random.bernoulli(jax.random.PRNGKey(0), 0.1, (81, 81))  # scaffolding
print(int(_check_info(state, state, effect_boards).sum()))  # scaffolding: works without jit
try:  # scaffolding
    out = jax.jit(lambda pb, eb: _check_info(types.SimpleNamespace(piece_board=pb), None, eb))(piece_board, effect_boards)  # scaffolding
    _report({"jit(<lambda>)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
