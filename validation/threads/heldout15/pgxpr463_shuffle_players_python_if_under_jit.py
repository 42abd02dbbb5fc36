# source: https://github.com/sotetsuk/pgx/pull/463
# expect: trace-time-error at line 48
# runtime: ERROR TracerBoolConversionError
# why: _shuffle_players decides the seating with a Python `if` on a jax.random.randint draw; jitting it (as the PR does) makes the draw a tracer, so the `if` raises TracerBoolConversionError.
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
import jax
import jax.numpy as jnp

jax.random.KeyArray = jax.Array  # scaffolding: the annotation type was removed from JAX


def _shuffle_players(rng: jax.random.KeyArray) -> jnp.ndarray:
    """Randomly arranges player IDs in a list in NESW order."""
    rng1, rng2, rng3, rng4 = jax.random.split(rng, num=4)
    # player_id = 0, 1 -> team a
    team_a_players = jax.random.permutation(
        rng2, jnp.arange(2, dtype=jnp.int8)
    )
    # player_id = 2, 3 -> team b
    team_b_players = jax.random.permutation(
        rng3, jnp.arange(2, 4, dtype=jnp.int8)
    )
    # decide which team is on
    # Randomly determine NSteam and EWteam
    # Arrange in order of NESW
    if jax.random.randint(rng4, (1,), 1, 2) == 1:
        shuffled_players = jnp.array(
            [
                team_a_players[0],
                team_b_players[0],
                team_a_players[1],
                team_b_players[1],
            ]
        )
    else:
        shuffled_players = jnp.array(
            [
                team_b_players[0],
                team_a_players[0],
                team_b_players[1],
                team_a_players[1],
            ]
        )
    return shuffled_players


key = jax.random.PRNGKey(0)  # scaffolding
print(_shuffle_players(key))  # scaffolding: works without jit
try:  # scaffolding
    jax.jit(_shuffle_players)(key)  # scaffolding: the PR decorates it with @jax.jit
    _report({"jit(_shuffle_players)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
