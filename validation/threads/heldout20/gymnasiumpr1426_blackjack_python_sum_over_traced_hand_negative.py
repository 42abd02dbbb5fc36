# source: https://github.com/Farama-Foundation/Gymnasium/pull/1426
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: usable_ace/sum_hand use Python's builtin sum over the 21-slot hand array; under jit this unrolls over a fixed-length traced array and works, so the jitted observation compiles once for five hands (the PR's change is a speed-up, not a fix).
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
# Farama-Foundation/Gymnasium PR #1426: BlackjackFunctional's usable_ace / sum_hand before the PR (Python sum over a jax array), gymnasium/envs/tabular/blackjack.py at 617736a78^
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np


class EnvState(NamedTuple):
    """A named tuple which contains the full state of the blackjack game."""

    dealer_hand: jax.Array
    player_hand: jax.Array
    dealer_cards: int
    player_cards: int
    done: int


def usable_ace(hand):
    """Checks to se if a hand has a usable ace."""
    return jnp.logical_and((jnp.count_nonzero(hand == 1) > 0), (sum(hand) + 10 <= 21))


def sum_hand(hand):
    """Returns the total points in a hand."""
    return sum(hand) + (10 * usable_ace(hand))


class BlackjackFunctional:  # scaffolding: the FuncEnv subclass reduced to observation and FuncEnv.transform
    def observation(
        self,
        state: EnvState,
        rng,
        params=None,
    ) -> jax.Array:
        """Blackjack observation."""
        return jnp.array(
            [
                sum_hand(state.player_hand),
                state.dealer_hand[0],
                usable_ace(state.player_hand) * 1.0,
            ],
            dtype=np.int32,
        )

    def transform(self, func):  # scaffolding: FuncEnv.transform, observation only
        """Functional transformations."""
        self.observation = func(self.observation)


env = BlackjackFunctional()  # scaffolding
env.transform(jax.jit)  # scaffolding: the functional API's way to jit the env functions
rng = jax.random.PRNGKey(0)  # scaffolding
for cards in ([1, 10], [5, 6, 1], [10, 10, 1], [2, 3], [1, 1, 9]):  # scaffolding: five player hands
    player_hand = jnp.zeros(21).at[: len(cards)].set(jnp.array(cards, dtype=jnp.float32))  # scaffolding
    state = EnvState(jnp.zeros(21).at[0].set(7.0), player_hand, 1, len(cards), 0)  # scaffolding
    obs = env.observation(state, rng)
print(obs)  # scaffolding
_report({"jit(observation)"}, 5)  # scaffolding
