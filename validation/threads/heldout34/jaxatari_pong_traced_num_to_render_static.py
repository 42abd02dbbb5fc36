# source: https://github.com/k4ntz/JAXAtari/commit/76cccc54abbebec18afdcf09b8f421df8d59715d
# expect: unhashable-static at line 236
# runtime: ERROR ValueError
# why: PongRenderer.render (jitted) computes num_to_render with jax.lax.select and passes it to render_label_selective, which lists num_to_render in static_argnames; a tracer cannot be hashed as a static argument, so rendering raises.

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
from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax import lax

# --- src/jaxatari/rendering/atraJaxis.py (JAXAtari @ 76cccc54^), imported as `aj` in the games ---
@jax.jit
def render_at(raster, x, y, sprite_frame, flip_horizontal=False, flip_vertical=False):
    """Renders a sprite onto a raster at position (x, y) top-left, with clipping and optional flipping.

    Args:
        raster: JAX array of shape (Width, Height, 3/4) for the target image.
        x: Integer x coordinate (left edge, horizontal) for sprite placement.
        y: Integer y coordinate (top edge, vertical) for sprite placement.
        sprite_frame: JAX array of shape (Width, Height, 4) containing RGB + alpha.
        flip_horizontal: Boolean flag to flip the sprite horizontally (left-right).
        flip_vertical: Boolean flag to flip the sprite vertically (top-bottom).

    Returns:
        A new raster JAX array (Width, Height, 3/4) with the sprite rendered.
    """
    # --- Input Validation and Setup ---
    x, y = jnp.asarray(x, dtype=jnp.int32), jnp.asarray(y, dtype=jnp.int32)
    # Arrays are (Width, Height, Channels)
    sprite_frame = jnp.asarray(sprite_frame) # Assume concrete shape (W, H, 4)
    raster = jnp.asarray(raster)             # Assume shape (W, H, 3 or 4)
    raster_width, raster_height, raster_channels = raster.shape
    sprite_width, sprite_height, _ = sprite_frame.shape # Need concrete shape here

    # --- Sprite Flipping ---
    sprite = sprite_frame
    # Flip horizontal means flipping along the Width axis (Axis 0)
    sprite = jax.lax.cond(flip_horizontal, lambda s: jnp.flip(s, axis=0), lambda s: s, sprite)
    # Flip vertical means flipping along the Height axis (Axis 1)
    sprite = jax.lax.cond(flip_vertical,   lambda s: jnp.flip(s, axis=1), lambda s: s, sprite)

    # --- Coordinate Calculation & Masking ---
    # Create coordinate grids for the *entire* raster (W, H)
    # 'ij' indexing: xx varies along axis 0 (Width), yy varies along axis 1 (Height)
    raster_xx, raster_yy = jnp.meshgrid(
        jnp.arange(raster_width),   # X coords (0..W-1)
        jnp.arange(raster_height),  # Y coords (0..H-1)
        indexing='ij'
    ) # raster_xx shape (W, H), raster_yy shape (W, H)

    # Calculate corresponding coordinates relative to the sprite's origin (top-left)
    sprite_coord_x = raster_xx - x # X position on sprite for each raster pixel
    sprite_coord_y = raster_yy - y # Y position on sprite for each raster pixel

    # Create mask: identifies raster pixels (at raster_xx, raster_yy) that
    # correspond to valid coordinates *within* the sprite's bounds (0..W-1, 0..H-1)
    sprite_bounds_mask = (sprite_coord_x >= 0) & (sprite_coord_x < sprite_width) & \
                         (sprite_coord_y >= 0) & (sprite_coord_y < sprite_height)
    # sprite_bounds_mask has shape (W, H)

    # --- Safe Gathering using Padding ---
    # Pad the sprite (W, H, C) to handle potential out-of-bounds access.
    pad_width_spec = ((1, 1), (1, 1), (0, 0)) # Pad W (axis 0), then H (axis 1)
    sprite_padded = jnp.pad(sprite, pad_width_spec, mode='constant', constant_values=0)
    # sprite_padded has shape (W+2, H+2, 4)

    # Adjust coordinates to index into the *padded* sprite
    sprite_coord_x_padded = sprite_coord_x + 1 # X index for padded sprite
    sprite_coord_y_padded = sprite_coord_y + 1 # Y index for padded sprite

    # Gather RGBA values from the padded sprite using calculated indices.
    # Indexing for (W, H, C) array is [x_index, y_index]
    gathered_sprite_rgba = sprite_padded[sprite_coord_x_padded, sprite_coord_y_padded]
    # gathered_sprite_rgba has shape (W, H, 4)

    # --- Blending Calculation (for all raster pixels) ---
    gathered_sprite_rgb = gathered_sprite_rgba[..., :3].astype(jnp.float32)
    gathered_sprite_alpha = (gathered_sprite_rgba[..., 3:].astype(jnp.float32) / 255.0) # Shape (W, H, 1)

    # Get current raster RGB (shape W, H, C)
    current_raster_rgb = raster[..., :raster_channels].astype(jnp.float32)

    # Perform alpha blending calculation everywhere
    blended_rgb = gathered_sprite_rgb * gathered_sprite_alpha + \
                  current_raster_rgb * (1.0 - gathered_sprite_alpha)
    # blended_rgb has shape (W, H, C)

    # --- Apply Mask with jnp.where ---
    final_mask_broadcasted = sprite_bounds_mask[..., None] # Shape (W, H, 1)

    # Where the mask is True (pixel corresponds to valid sprite area), select blended_rgb.
    # Where the mask is False (pixel outside sprite area), select the original current_raster_rgb.
    new_raster_float = jnp.where(
        final_mask_broadcasted, # Condition (W, H, 1)
        blended_rgb,            # Value if True (W, H, C)
        current_raster_rgb      # Value if False (W, H, C)
    )

    # Cast final result back to original raster dtype
    new_raster = new_raster_float.astype(raster.dtype) # Shape (W, H, C)

    return new_raster


@partial(jax.jit, static_argnames=["spacing", "num_to_render"])
def render_label_selective(raster, x, y,
                           all_digits,    # JAX array (e.g., length 2 or more)
                           char_sprites,  # (10, W, H, C)
                           start_index,   # Concrete integer (0 or 1 usually)
                           num_to_render, # Concrete integer (1 or 2 usually)
                           spacing=15):
    """Renders a specified number of digits from a digit array at (x, y).

    Args:
        raster: Target raster (W, H, C).
        x: Left x coordinate for the *first rendered digit*.
        y: Top y coordinate.
        all_digits: JAX array containing all potential digits.
        char_sprites: JAX array of sprite frames for each digit (0-9).
        start_index: The index within `all_digits` to start rendering from.
        num_to_render: How many digits to render sequentially from `start_index`.
        spacing: Horizontal space between digits.

    Returns:
        Updated raster.
    """
    def render_char(i, current_raster):
        # i is the loop index (0 up to num_to_render-1)
        digit_index_in_array = start_index + i
        digit_value = all_digits[digit_index_in_array]
        sprite_to_render = char_sprites[digit_value] # Gets (W, H, C) sprite
        render_x = x + i * spacing # Calculate x position based on loop index
        return render_at(current_raster, render_x, y, sprite_to_render)

    raster = jax.lax.fori_loop(0, num_to_render, render_char, raster)
    return raster


@partial(jax.jit, static_argnames=["max_digits"])
def int_to_digits(n, max_digits=8):
    """Convert a non-negative integer to a fixed-length JAX array of digits (most significant first).

    Args:
        n: The integer to convert.
        max_digits: The fixed number of digits in the output array.

    Returns:
        A 1D JAX array of length `max_digits`.
    """
    # Ensure n is non-negative
    n = jnp.maximum(n, 0)
    # Clip n to the maximum value representable by max_digits
    max_val = 10**max_digits - 1
    n = jnp.minimum(n, max_val)

    # Use lax.scan to extract digits efficiently
    def scan_body(carry, _):
        current_n = carry
        digit = current_n % 10
        next_n = current_n // 10
        # Return next carry and the extracted digit
        return next_n, digit

    # Initial carry is the number itself
    # Scan over a dummy array of the correct length
    _, digits_reversed = lax.scan(scan_body, n, None, length=max_digits)

    # Digits are generated least significant first, flip them
    return jnp.flip(digits_reversed)


class aj:  # scaffolding: the games do `import jaxatari.rendering.atraJaxis as aj`
    render_at = staticmethod(render_at)
    render_label_selective = staticmethod(render_label_selective)
    int_to_digits = staticmethod(int_to_digits)


WIDTH, HEIGHT = 160, 210  # scaffolding: jax_pong.py constants


class PongState(NamedTuple):  # scaffolding: only the fields the score rendering reads
    player_score: jnp.ndarray
    enemy_score: jnp.ndarray


# --- src/jaxatari/games/jax_pong.py PongRenderer.render, score part (walls, paddles, ball trimmed) ---
class PongRenderer:
    def __init__(self):  # scaffolding: stand-in digit sprites instead of load_sprites()
        self.PLAYER_DIGIT_SPRITES = jnp.zeros((10, 12, 20, 4), dtype=jnp.uint8)
        self.ENEMY_DIGIT_SPRITES = jnp.zeros((10, 12, 20, 4), dtype=jnp.uint8)

    @partial(jax.jit, static_argnums=(0,))
    def render(self, state):
        raster = jnp.zeros((WIDTH, HEIGHT, 3))


        # 1. Get digit arrays (always 2 digits)
        player_score_digits = aj.int_to_digits(state.player_score, max_digits=2)
        enemy_score_digits = aj.int_to_digits(state.enemy_score, max_digits=2)

        # 2. Determine parameters for player score rendering using jax.lax.select
        is_player_single_digit = state.player_score < 10
        player_start_index = jax.lax.select(is_player_single_digit, 1, 0) # Start at index 1 if single, 0 if double
        player_num_to_render = jax.lax.select(is_player_single_digit, 1, 2) # Render 1 digit if single, 2 if double
        # Adjust X position: If single digit, center it slightly by moving right by half the spacing
        player_render_x = jax.lax.select(is_player_single_digit,
                                         120 + 16 // 2,
                                         120)

        # 3. Render player score using the selective renderer
        raster = aj.render_label_selective(raster, player_render_x, 3,
                                            player_score_digits, self.PLAYER_DIGIT_SPRITES,
                                            player_start_index, player_num_to_render,
                                            spacing=16)

        # 4. Determine parameters for enemy score rendering
        is_enemy_single_digit = state.enemy_score < 10
        enemy_start_index = jax.lax.select(is_enemy_single_digit, 1, 0)
        enemy_num_to_render = jax.lax.select(is_enemy_single_digit, 1, 2)
        enemy_render_x = jax.lax.select(is_enemy_single_digit,
                                        10 + 16 // 2,
                                        10)

        # 5. Render enemy score
        raster = aj.render_label_selective(raster, enemy_render_x, 3,
                                           enemy_score_digits, self.ENEMY_DIGIT_SPRITES,
                                           enemy_start_index, enemy_num_to_render,
                                           spacing=16)


        return raster


renderer = PongRenderer()  # scaffolding
try:  # scaffolding
    for score in range(4):  # scaffolding: a few frames with changing scores
        renderer.render(PongState(jnp.array(score * 4), jnp.array(score * 3)))
    _report({"jit(render)"}, 4)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
