# source: https://github.com/instadeepai/jumanji/commit/cae21acb4839be895f1a9a5d537d04dbe28bca60
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: The commit's fix stores pellets as jnp.array(pellets, jnp.int32), so the state's pellets leaf has the same strong int32 type before and after a step and step compiles once.

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
from typing import NamedTuple, Tuple

import chex
import jax
import jax.numpy as jnp
from chex import dataclass


class Position(NamedTuple):
    x: jnp.int32
    y: jnp.int32


@dataclass
class State:
    key: chex.PRNGKey  # (2,)
    grid: chex.Array  # (31,28)
    pellets: jnp.int32  # ()
    pellet_locations: chex.Array  # (316,2)
    player_locations: Position  # Position(row, col) each of shape ()
    last_direction: jnp.int32
    dead: bool
    step_count: jnp.int32  # ()
    score: jnp.int32  # ()


class AsciiGenerator:
    """Generate maze from an ascii diagram."""

    def __init__(self) -> None:
        # scaffolding: a 5x5 maze instead of parsing the 31x28 ascii map
        self.numpy_maze = jnp.ones((5, 5), jnp.int32)
        self.pellet_spaces = jnp.array([[1, 2], [1, 3], [2, 3], [3, 3]])
        self.player_coords = Position(y=1, x=1)

    def __call__(self, key: chex.PRNGKey) -> State:

        grid = self.numpy_maze
        pellets = self.pellet_spaces.shape[0]
        pellet_locations = self.pellet_spaces
        player_locations = self.player_coords
        last_direction = jnp.array(0, jnp.int32)

        # Build the state.
        return State(
            key=key,
            grid=grid,
            pellets=jnp.array(pellets, jnp.int32),
            pellet_locations=pellet_locations,
            player_locations=player_locations,
            last_direction=last_direction,
            dead=False,
            step_count=jnp.array(0, jnp.int32),
            score=jnp.array(0, jnp.int32),
        )


class PacMan:
    def __init__(self) -> None:
        self.generator = AsciiGenerator()
        self.time_limit = 1000

    def reset(self, key):
        state = self.generator(key)
        return state, None  # scaffolding: no TimeStep/observation

    def step(self, state: State, action: chex.Array) -> Tuple[State, chex.Array]:
        # Collect updated state based on environment dynamics
        updated_state, collision_rewards = self._update_state(state, action)

        # Create next_state from updated state
        next_state = updated_state.replace(step_count=state.step_count + 1)  # type: ignore

        # Check if episode terminates
        num_pellets = next_state.pellets
        time_limit_exceeded = next_state.step_count >= self.time_limit
        all_pellets_found = num_pellets == 0
        dead = next_state.dead == 1
        done = time_limit_exceeded | dead | all_pellets_found

        reward = jnp.asarray(collision_rewards)
        return next_state, (reward, done)  # scaffolding: no TimeStep

    def _update_state(self, state: State, action: chex.Array) -> Tuple[State, int]:
        # scaffolding: the player moves one column right on action 1 (no walls, no ghosts)
        next_player_pos = Position(
            x=state.player_locations.x + (action == 1), y=state.player_locations.y
        )
        state.player_locations = next_player_pos
        state.last_direction = jnp.array(action, jnp.int32)

        # Check for collected pellets
        collision_rewards, pellets, num_pellets = self.check_rewards(state)
        state = state.replace(pellet_locations=pellets)
        state = state.replace(pellets=num_pellets)
        reward = collision_rewards
        state.score = jnp.array(state.score + reward, jnp.int32)
        return state, reward

    def check_rewards(self, state: State) -> Tuple[int, chex.Array, int]:
        # Get the locations of the pellets and the player
        pellet_spaces = jnp.array(state.pellet_locations)
        player_space = state.player_locations
        ps = jnp.array([player_space.y, player_space.x])

        # Get the number of pellets on the map
        num_pellets = state.pellets

        # Check if player has eaten a pellet in this step
        ate_pellet = jnp.any(jnp.all(ps == pellet_spaces, axis=-1))

        # Reduce number of pellets on map if eaten, add reward and remove eaten pellet
        num_pellets -= ate_pellet.astype(int)
        rewards = ate_pellet * 10.0
        mask = jnp.logical_not(jnp.all(ps == pellet_spaces, axis=-1))
        pellet_spaces = pellet_spaces * mask[..., None]

        return rewards, pellet_spaces, num_pellets


# scaffolding: the usual jumanji loop, reset then a jitted step
env = PacMan()
step_fn = jax.jit(env.step)
state, timestep = env.reset(jax.random.PRNGKey(0))
calls = 0
for _ in range(4):
    state, timestep = step_fn(state, jnp.array(1, jnp.int32))
    calls += 1
_report({"jit(step)"}, calls)
