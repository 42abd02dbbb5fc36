# source: https://github.com/mjo22/cryojax/commit/7b96b7efb8c690fcfbf2a8e3ef70b5d5b49e5268
# expect: changing-static at line 54
# runtime: COMPILES 4 CALLS 4
# why: CircularCosineMask keeps its radius and rolloff width as static fields, so every new radius passed to an eqx.filter_jit function is a new static value and recompiles.

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
import equinox as eqx
import jax
import jax.numpy as jnp
from equinox import field
from jaxtyping import Array, Float


class AbstractMask(eqx.Module, strict=True):
    """Base class for computing and applying an image mask."""

    buffer: eqx.AbstractVar[Float[Array, "y_dim x_dim"]]

    def __call__(
        self, image: Float[Array, "y_dim x_dim"] | Float[Array, "z_dim y_dim x_dim"]
    ) -> Float[Array, "y_dim x_dim"] | Float[Array, "z_dim y_dim x_dim"]:
        return image * jax.lax.stop_gradient(self.buffer)


class CircularCosineMask(AbstractMask, strict=True):
    """Apply a circular mask to an image with a cosine
    soft-edge.
    """

    buffer: Float[Array, "y_dim x_dim"]

    radius_in_angstroms_or_pixels: float = field(static=True)
    rolloff_width_in_angstroms_or_pixels: float = field(static=True)

    def __init__(
        self,
        coordinate_grid_in_angstroms_or_pixels: Float[Array, "y_dim x_dim 2"],
        radius_in_angstroms_or_pixels: float,
        rolloff_width_in_angstroms_or_pixels: float,
    ):
        """**Arguments:**

        - `coordinate_grid_in_angstroms_or_pixels`:
            The image coordinates.
        - `radius_in_angstroms_or_pixels`:
            The radius of the circular mask.
        - `rolloff_width_in_angstroms_or_pixels`:
            The rolloff width of the soft edge.
        """
        self.radius_in_angstroms_or_pixels = radius_in_angstroms_or_pixels
        self.rolloff_width_in_angstroms_or_pixels = rolloff_width_in_angstroms_or_pixels
        self.buffer = _compute_circular_or_spherical_mask(
            coordinate_grid_in_angstroms_or_pixels,
            self.radius_in_angstroms_or_pixels,
            self.rolloff_width_in_angstroms_or_pixels,
        )


def _compute_circular_or_spherical_mask(
    coordinate_grid: Float[Array, "y_dim x_dim 2"] | Float[Array, "z_dim y_dim x_dim 3"],
    radius: float,
    rolloff_width: float,
) -> Float[Array, "y_dim x_dim"] | Float[Array, "z_dim y_dim x_dim"]:
    radial_coordinate_grid = jnp.linalg.norm(coordinate_grid, axis=-1)

    def compute_mask_at_coordinate(radial_coordinate):
        return jnp.where(
            radial_coordinate <= radius,
            1.0,
            jnp.where(
                radial_coordinate > radius + rolloff_width,
                0.0,
                0.5
                * (
                    1
                    + jnp.cos(jnp.pi * (radial_coordinate_grid - radius) / rolloff_width)
                ),
            ),
        )

    compute_mask = (
        jax.vmap(jax.vmap(compute_mask_at_coordinate))
        if radial_coordinate_grid.ndim == 2
        else jax.vmap(jax.vmap(jax.vmap(compute_mask_at_coordinate)))
    )

    return compute_mask(radial_coordinate_grid)


@eqx.filter_jit
def masked_normalized_image(mask: AbstractMask, image: Array) -> Array:  # scaffolding: user's jitted image step
    masked = mask(image)
    return (masked - masked.mean()) / (masked.std() + 1e-6)


y, x = jnp.meshgrid(jnp.arange(-4.0, 4.0), jnp.arange(-4.0, 4.0), indexing="ij")  # scaffolding: 8x8 pixel grid
coordinate_grid = jnp.stack([x, y], axis=-1)
image = jax.random.normal(jax.random.PRNGKey(0), (8, 8))
calls = 0
for radius in (2.0, 2.5, 3.0, 3.5):  # scaffolding: sweep the mask radius
    mask = CircularCosineMask(coordinate_grid, radius, 1.0)
    masked_normalized_image(mask, image)
    calls += 1
_report({"jit(masked_normalized_image)"}, calls)
