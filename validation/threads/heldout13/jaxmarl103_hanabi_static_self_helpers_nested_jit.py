# source: https://github.com/FLAIROx/JaxMARL/pull/103
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: The PR decorates HanabiGame's action helpers with partial(jax.jit, static_argnums=[0]); they are only called from inside the jitted step, where the inner jits are inlined, so the step compiles once and the helpers add no compiles.

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
from functools import partial

import jax
import jax.numpy as jnp


# jaxmarl/environments/hanabi/hanabi_game.py after PR #103: the constructor's action ranges and the
# action-type helpers (docstrings trimmed)
class HanabiGame:
    def __init__(self, num_agents=2, num_colors=5, num_ranks=5, hand_size=5):
        self.num_agents = num_agents
        self.num_colors = num_colors
        self.num_ranks = num_ranks
        self.hand_size = hand_size
        self.discard_action_range = jnp.arange(
            0,
            self.hand_size
        )
        self.play_action_range = jnp.arange(
            self.hand_size,
            2 * self.hand_size
        )
        self.color_action_range = jnp.arange(
            2 * self.hand_size,
            2 * self.hand_size + (self.num_agents - 1) * self.num_colors
        )
        self.rank_action_range = jnp.arange(
            2 * self.hand_size + (self.num_agents - 1) * self.num_colors,
            2 * self.hand_size + (self.num_agents - 1) * (self.num_colors + self.num_ranks)
        )

    @partial(jax.jit, static_argnums=[0])
    def _get_target_player_and_hint_index(self, aidx: int, action: int):
        is_hint_color = self._is_hint_color(action)
        # adjust the action - we start with a zero index removing the preceeding actions
        action_idx = action - 2 * self.hand_size
        action_idx = jnp.where(
            is_hint_color,
            action_idx,
            action_idx - (self.num_agents - 1) * self.num_colors
        )

        # get the index of hint (rank/color) played
        hint_idx = jnp.where(
            is_hint_color,
            jnp.mod(action_idx, self.num_colors),
            jnp.mod(action_idx, self.num_ranks)
        )

        # get the player to hint.
        target_player_absolute = jnp.where(
            is_hint_color,
            jnp.floor_divide(action_idx, self.num_colors),
            jnp.floor_divide(action_idx, self.num_ranks)
        )
        # adjust for the player who is hinting - wrap around
        target_player = jnp.mod(target_player_absolute + aidx + 1, self.num_agents).astype(int)

        return target_player, hint_idx

    @partial(jax.jit, static_argnums=[0])
    def _is_discard(self, action: int):
        return jnp.logical_and(
            action >= self.discard_action_range[0],
            action <= self.discard_action_range[-1],
        )

    @partial(jax.jit, static_argnums=[0])
    def _is_play(self, action: int):
        return jnp.logical_and(
            action >= self.play_action_range[0],
            action <= self.play_action_range[-1],
        )

    @partial(jax.jit, static_argnums=[0])
    def _is_hint_color(self, action: int):
        return jnp.logical_and(
            action >= self.color_action_range[0],
            action <= self.color_action_range[-1],
        )

    @partial(jax.jit, static_argnums=[0])
    def _is_hint_rank(self, action: int):
        return jnp.logical_and(
            action >= self.rank_action_range[0],
            action <= self.rank_action_range[-1],
        )

    @partial(jax.jit, static_argnums=[0])
    def _is_hint(self, action: int):
        return jnp.logical_or(
            self._is_hint_color(action),
            self._is_hint_rank(action),
        )

    @partial(jax.jit, static_argnums=[0])
    def _is_play_or_discard(self, action: int):
        return jnp.logical_or(
            self._is_play(action),
            self._is_discard(action),
        )

    # scaffolding: a jitted step fragment using the helpers, as step_env does
    @partial(jax.jit, static_argnums=[0])
    def step_agent(self, aidx, action):
        target_player, hint_idx = self._get_target_player_and_hint_index(aidx, action)
        kind = jnp.where(self._is_hint(action), 2, jnp.where(self._is_play(action), 1, 0))
        return kind, jnp.where(self._is_play_or_discard(action), -1, target_player), hint_idx


# scaffolding: a few agent actions (discard, play, colour hint, rank hint)
game = HanabiGame()
calls = 0
for aidx, action in [(0, 1), (1, 7), (0, 12), (1, 17), (0, 3)]:
    game.step_agent(jnp.int32(aidx), jnp.int32(action))
    calls += 1
_report({"jit(step_agent)", "jit(_is_hint)", "jit(_is_play)", "jit(_is_discard)", "jit(_is_hint_color)",
         "jit(_is_hint_rank)", "jit(_is_play_or_discard)", "jit(_get_target_player_and_hint_index)"}, calls)
