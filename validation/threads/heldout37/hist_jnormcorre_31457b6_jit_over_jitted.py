# source: https://github.com/apasarkar/jnormcorre/commit/31457b615a584ceec38e37ad1a63846ad267bd61
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: frame_corrector wraps a closure that calls the already jitted, vmapped registration method (static strides/overlaps from self) in a second jit; the inner jit is simply inlined while tracing, so registering four same-shaped batches compiles the outer function once.

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
from types import SimpleNamespace  # scaffolding

import jax.numpy as jnp
import numpy as np
from jax import jit, vmap


def tile_and_correct_ideal(img, template, strides_0, strides_1, overlaps_0, overlaps_1,
                           max_shifts, upsample_factor_fft, max_deviation_rigid,
                           add_to_movie):  # scaffolding: stand-in for the piecewise-rigid kernel
  img = img + add_to_movie
  xc = jnp.fft.ifft2(jnp.fft.fft2(img) * jnp.conj(jnp.fft.fft2(template))).real
  idx = jnp.argmax(xc)
  sy, sx = jnp.unravel_index(idx, xc.shape)
  sy = jnp.clip(sy, -max_shifts[0], max_shifts[0])
  sx = jnp.clip(sx, -max_shifts[1], max_shifts[1])
  return jnp.roll(img, (-sy, -sx), axis=(0, 1)), jnp.stack([sy, sx])


class frame_corrector():
    def __init__(self, corrector, batching=100):
        if corrector.pw_rigid:
            self.corr_method = "pwrigid"
        else:
            self.corr_method = "rigid"

        self.max_shifts = corrector.max_shifts

        self.upsample_factor_fft = 10 ##NOTE: This is a hardcoded value in the original normcorre method, eventually actually treat it like a constant
        self.add_to_movie = -corrector.min_mov
        self.strides = corrector.strides
        self.overlaps = corrector.overlaps
        self.max_deviation_rigid = corrector.max_deviation_rigid
        self.batching = batching

        if self.corr_method == "pwrigid":
            self.template = corrector.total_template_els
            self.registration_method = jit(vmap(tile_and_correct_ideal, in_axes = (0, None, None, None, None, None, None, None, None, None)), static_argnums=(2,3,4,5,7))

            def simplified_registration_func(frames):
                return self.registration_method(frames, self.template, self.strides[0], self.strides[1], \
                                                                     self.overlaps[0], self.overlaps[1], self.max_shifts,self.upsample_factor_fft, \
                                                                     self.max_deviation_rigid, self.add_to_movie)[0]
            self.jitted_method = jit(simplified_registration_func)
        else:
            raise ValueError("Invalid method provided. Must either be pwrigid or rigid")

    def register_frames(self, frames):
        return self.jitted_method(frames)


# scaffolding: a corrector with a 32x32 template, four batches of 8 frames
rng = np.random.RandomState(0)
corrector = SimpleNamespace(pw_rigid=True, max_shifts=(4, 4), min_mov=0.0,
                            strides=(16, 16), overlaps=(8, 8), max_deviation_rigid=3,
                            total_template_els=jnp.asarray(rng.rand(32, 32), jnp.float32))
fc = frame_corrector(corrector, batching=8)
for _ in range(4):
    frames = rng.rand(8, 32, 32).astype(np.float32)
    corrected = fc.register_frames(frames)
_report({"jit(simplified_registration_func)", "jit(tile_and_correct_ideal)"}, 4)
