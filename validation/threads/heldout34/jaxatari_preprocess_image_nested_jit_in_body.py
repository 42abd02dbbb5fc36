# source: https://github.com/k4ntz/JAXAtari/commit/7cb11b5c4700f1c965254eac2abf3a005dfa4fd6
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: preprocess_image defines a @jax.jit gaussian_blur_2d inside its body, but preprocess_image is itself jitted with the wrapper static, so the inner jit is only built while tracing: four frames compile once.

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
import functools

import chex
import jax
import jax.image as jim
import jax.numpy as jnp


class JaxatariWrapper:  # scaffolding: stands in for the wrapper base class (used as a static, hashable `self`)
    def __init__(self, do_pixel_resize, pixel_resize_shape, grayscale, native_downscaling, smooth_image):
        self.do_pixel_resize = do_pixel_resize
        self.pixel_resize_shape = pixel_resize_shape
        self.grayscale = grayscale
        self.native_downscaling = native_downscaling
        self.smooth_image = smooth_image


# --- src/jaxatari/wrappers.py (JAXAtari @ 7cb11b5c^, before "removed a nested JIT in wrappers") ---
@functools.partial(jax.jit, static_argnums=(0,))
def preprocess_image(class_instance: JaxatariWrapper, image: chex.Array) -> chex.Array:
    """Applies resizing and grayscaling to a single image frame."""
    image = image.astype(jnp.float32)

    # Has to use a standard Python `if` since jax.lax.cond would fail due to different shapes. This is possible since do_pixel_resize is a static parameter.
    if class_instance.do_pixel_resize:
        image = jim.resize(image, (class_instance.pixel_resize_shape[0], class_instance.pixel_resize_shape[1], image.shape[-1]), method='bilinear')
    
    # applies grayscale if enabled with the same method as for resize
    if class_instance.grayscale:
        image = jnp.dot(image, jnp.array([0.2989, 0.5870, 0.1140]))[..., jnp.newaxis] # numbers for grayscale transformation as in https://en.wikipedia.org/wiki/Luma_(video)

    # Apply gaussian smoothing to natively downscaled images to get similar effect to actual downscaling
    if class_instance.native_downscaling and class_instance.smooth_image:

        @functools.partial(jax.jit, static_argnames=['sigma'])
        def gaussian_blur_2d(image, sigma=3.0):
            # image input: [N, C, H, W]
            c = image.shape[1]
            radius = int(sigma * 3)
            size = radius * 2 + 1
            x = jnp.linspace(-radius, radius, size)
            phi_x = jnp.exp(-0.5 * (x / sigma)**2)
            phi_x = (phi_x / phi_x.sum()).astype(image.dtype)

            # 1D Kernels for depthwise conv
            # Horizontal: (C, 1, 1, K)
            h_kernel = phi_x[None, None, None, :]
            h_kernel = jnp.tile(h_kernel, (c, 1, 1, 1))
            
            # Vertical: (C, 1, K, 1)
            v_kernel = phi_x[None, None, :, None]
            v_kernel = jnp.tile(v_kernel, (c, 1, 1, 1))

            # Apply Horizontal pass
            out = jax.lax.conv_general_dilated(
                image, h_kernel, (1, 1), padding='SAME',
                feature_group_count=c,
                dimension_numbers=('NCHW', 'OIHW', 'NCHW')
            )
            # Apply Vertical pass
            out = jax.lax.conv_general_dilated(
                out, v_kernel, (1, 1), padding='SAME',
                feature_group_count=c,
                dimension_numbers=('NCHW', 'OIHW', 'NCHW')
            )
            return out
        image_gauss = gaussian_blur_2d(image[None].transpose(0, 3, 1, 2))
        image = image_gauss.squeeze().reshape(image.shape)
    
    return image.astype(jnp.uint8)


# scaffolding: PixelObsWrapper with native downscaling + smoothing, as after apply_native_downscaling
wrapper = JaxatariWrapper(do_pixel_resize=False, pixel_resize_shape=(84, 84), grayscale=False,
                          native_downscaling=True, smooth_image=True)
key = jax.random.PRNGKey(0)  # scaffolding
for i in range(4):  # scaffolding: four rendered frames, as reset/step would pass them
    image = jax.random.randint(jax.random.fold_in(key, i), (84, 84, 3), 0, 255).astype(jnp.uint8)
    preprocess_image(wrapper, image)
_report({"jit(preprocess_image)", "jit(gaussian_blur_2d)"}, 4)  # scaffolding
