# source: https://github.com/sotetsuk/pgx/pull/463
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the PR rewrites the branch with jax.lax.cond on the drawn value and decorates the function with @jax.jit, so it traces and compiles once for three keys.
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


@jax.jit
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
    return jax.lax.cond(
        jax.random.randint(rng4, (1,), 1, 2)[0] == 1,
        lambda: jnp.array(
            [
                team_a_players[0],
                team_b_players[0],
                team_a_players[1],
                team_b_players[1],
            ]
        ),
        lambda: jnp.array(
            [
                team_b_players[0],
                team_a_players[0],
                team_b_players[1],
                team_a_players[1],
            ]
        ),
    )


calls = 0  # scaffolding
for i in range(3):  # scaffolding
    print(_shuffle_players(jax.random.PRNGKey(i)))  # scaffolding
    calls += 1  # scaffolding
_report({"jit(_shuffle_players)"}, calls)  # scaffolding
