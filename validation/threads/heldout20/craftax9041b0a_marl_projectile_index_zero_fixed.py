# source: https://github.com/MichaelTMatthews/Craftax/commit/9041b0aa4d39499f826e0655ca6d3e6d832bf017
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: With [0] instead of .item() the checks stay traced booleans, so the jitted step traces once and is reused.

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


import types  # scaffolding
from enum import Enum  # scaffolding

import jax
import jax.numpy as jnp
from flax import struct  # scaffolding


class BlockType(Enum):  # scaffolding: craftax constants (0 grass, 1 stone, 2 water)
    GRASS = 0
    STONE = 1
    WATER = 2


SOLID_BLOCK_MAPPING = jnp.array([False, True, False])  # scaffolding


@struct.dataclass
class Projectiles:  # scaffolding
    position: jnp.ndarray
    mask: jnp.ndarray


@struct.dataclass
class EnvState:  # scaffolding: the fields the projectile step reads
    map: jnp.ndarray
    mob_projectiles: Projectiles
    mob_projectile_directions: jnp.ndarray
    player_level: int


# craftax/craftax_marl/util/game_logic_utils.py
def in_bounds(position, static_params):
    in_bounds_x = jnp.logical_and(
        0 <= position[:, 0], position[:, 0] < static_params.map_size[0]
    )
    in_bounds_y = jnp.logical_and(
        0 <= position[:, 1], position[:, 1] < static_params.map_size[1]
    )
    return jnp.logical_and(in_bounds_x, in_bounds_y)


def is_in_solid_block(level_map, position):
    return SOLID_BLOCK_MAPPING[
        level_map[position[:, 0], position[:, 1]]
    ]


static_params = types.SimpleNamespace(map_size=(8, 8), max_mob_projectiles=3)  # scaffolding


# craftax/craftax_marl/game_logic.py after the commit (update_mobs, projectile part; player hits and mob checks cut)
@jax.jit  # scaffolding: the env step is jitted
def update_mob_projectiles(rng, state):
    # Move projectiles
    def _move_mob_projectile(rng_and_state, projectile_index):
        rng, state = rng_and_state
        projectiles = state.mob_projectiles

        proposed_position = (
            projectiles.position[state.player_level, projectile_index]
            + state.mob_projectile_directions[state.player_level, projectile_index]
        )


        proposed_position_in_bounds = in_bounds(proposed_position[None, :], static_params)[0]
        in_wall = is_in_solid_block(state.map[state.player_level], proposed_position[None, :])[0]
        in_wall = jnp.logical_and(
            in_wall,
            jnp.logical_not(
                state.map[state.player_level][
                    proposed_position[0], proposed_position[1]
                ]
                == BlockType.WATER.value
            ),
        )  # Arrows can go over water

        continue_move = jnp.logical_and(
            proposed_position_in_bounds, jnp.logical_not(in_wall)
        )

        position = proposed_position

        # Clear our old entry if we are alive
        new_mask = jnp.logical_and(
            continue_move, projectiles.mask[state.player_level, projectile_index]
        )
        state = state.replace(  # scaffolding: the real code also updates the mob map and player health
            mob_projectiles=projectiles.replace(
                position=projectiles.position.at[state.player_level, projectile_index].set(position),
                mask=projectiles.mask.at[state.player_level, projectile_index].set(new_mask),
            )
        )
        return (rng, state), None

    (rng, state), _ = jax.lax.scan(
        _move_mob_projectile, (rng, state), jnp.arange(static_params.max_mob_projectiles)
    )
    return state


state = EnvState(  # scaffolding: one level of 8x8 grass with a stone wall in column 5
    map=jnp.zeros((1, 8, 8), jnp.int32).at[0, :, 5].set(BlockType.STONE.value),
    mob_projectiles=Projectiles(jnp.array([[[1, 1], [2, 2], [3, 4]]]), jnp.ones((1, 3), bool)),
    mob_projectile_directions=jnp.array([[[0, 1], [1, 0], [0, 1]]]),
    player_level=0,
)
try:  # scaffolding
    for step in range(3):  # scaffolding: three env steps
        state = update_mob_projectiles(jax.random.PRNGKey(step), state)  # scaffolding
    _report({"jit(update_mob_projectiles)"}, 3)  # scaffolding
except Exception as err:  # scaffolding
    print(f"ERROR {type(err).__name__}")  # scaffolding
