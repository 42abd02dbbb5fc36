# source: https://github.com/GarretteBaker/CraftaxDevinterp/commit/d77b814c3635f898bead0b8f4f54e7df18e55f8a
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: The fix makes block_pixel_size = 7 a constant inside render_craftax_pixels, so the dict lookup uses a Python int and the four frames compile once.

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
# craftax/inter_model_trajectories.py of GarretteBaker/CraftaxDevinterp at d77b814 (the fix, rendering part)
import enum  # scaffolding
from typing import NamedTuple  # scaffolding
import jax
import jax.numpy as jnp

# --- scaffolding: stand-ins for craftax.craftax.full_view_constants / util (not installed) ---
OBS_DIM = (9, 11)
MAX_OBS_DIM = max(OBS_DIM)


class BlockType(enum.Enum):
    OUT_OF_BOUNDS = 0
    NECROMANCER = 1
    NECROMANCER_VULNERABLE = 2


TEXTURES = {
    7: {"full_map_block_textures": jnp.ones((3, 7 * OBS_DIM[0], 7 * OBS_DIM[1], 3))},
    16: {"full_map_block_textures": jnp.ones((3, 16 * OBS_DIM[0], 16 * OBS_DIM[1], 3))},
}


def is_boss_vulnerable(state):
    return jnp.array(False)


class EnvState(NamedTuple):
    map: jnp.ndarray
    player_level: jnp.ndarray
    player_position: jnp.ndarray
# --- end scaffolding ---


def render_craftax_pixels(state, do_night_noise=True):
    block_pixel_size = 7
    textures = TEXTURES[block_pixel_size]
    obs_dim_array = jnp.array([OBS_DIM[0], OBS_DIM[1]], dtype=jnp.int32)

    # RENDER MAP
    # Get view of map
    map = state.map[state.player_level]
    padded_grid = jnp.pad(
        map,
        (MAX_OBS_DIM + 2, MAX_OBS_DIM + 2),
        constant_values=BlockType.OUT_OF_BOUNDS.value,
    )

    tl_corner = state.player_position - obs_dim_array // 2 + MAX_OBS_DIM + 2

    map_view = jax.lax.dynamic_slice(padded_grid, tl_corner, OBS_DIM)

    # Boss
    boss_block = jax.lax.select(
        is_boss_vulnerable(state),
        BlockType.NECROMANCER_VULNERABLE.value,
        BlockType.NECROMANCER.value,
    )

    map_view_boss = map_view == BlockType.NECROMANCER.value
    map_view = map_view_boss * boss_block + (1 - map_view_boss) * map_view

    # Render map tiles
    map_pixels_indexes = jnp.repeat(
        jnp.repeat(map_view, repeats=block_pixel_size, axis=0),
        repeats=block_pixel_size,
        axis=1,
    )
    map_pixels_indexes = jnp.expand_dims(map_pixels_indexes, axis=-1)
    map_pixels_indexes = jnp.repeat(map_pixels_indexes, repeats=3, axis=2)
    # (the remaining ~650 lines of item/mob/inventory rendering are cut: scaffolding)
    return textures["full_map_block_textures"][0] * map_pixels_indexes  # scaffolding


_jitted_render_pixels = jax.jit(render_craftax_pixels)

#%%
traj_map = jnp.zeros((200, 1, 9, 48, 48), dtype=jnp.int32)  # scaffolding: stand-in trajectory.env_state
trajectory_env_state = EnvState(traj_map, jnp.zeros((200, 1), jnp.int32), jnp.full((200, 1, 2), 24, jnp.int32))  # scaffolding
n_frames = 0  # scaffolding
try:  # scaffolding
    for frame in range(4):  # scaffolding: 4 frames instead of 200, plotting cut
        state = jax.tree_util.tree_map(lambda x: x[frame, 0, ...], trajectory_env_state)
        pixels = _jitted_render_pixels(state)/256
        n_frames += 1  # scaffolding
    _report({"jit(render_craftax_pixels)"}, n_frames)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
