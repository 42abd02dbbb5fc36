# source: https://github.com/AI-Hypercomputer/maxdiffusion/commit/42c54ef3e133cc385f3ce259540de5bf841fa20d
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the commit caches the nnx.jit-wrapped lambda on the pipeline (self._jitted_vocoder), so the vocoder compiles once for 3 calls.

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


import time

import jax
import jax.numpy as jnp
import numpy as np
from flax import nnx


class Vocoder(nnx.Module):  # scaffolding: a one-layer stand-in for the LTX-2 BWE vocoder
  def __init__(self, rngs):
    self.proj = nnx.Linear(16, 4, rngs=rngs)

  def __call__(self, mel):
    return jnp.tanh(self.proj(mel)).reshape(mel.shape[0], -1)


class LTX2Pipeline:  # scaffolding: the end of __call__ only (video/audio VAE decoding replaced by given spectrograms)
  def __init__(self):
    self.vocoder = Vocoder(nnx.Rngs(0))

  def decode_audio(self, generated_mel_spectrograms):
    # src/maxdiffusion/pipelines/ltx2/ltx2_pipeline.py, LTX2Pipeline.__call__ (after the commit; logging dropped)
    # Audio VAE outputs (B, T, F, C), Vocoder expects (B, Channels, Time, MelBins)
    generated_mel_spectrograms = generated_mel_spectrograms.transpose(0, 3, 1, 2)

    vocoder_start_time = time.time()
    # Cache the JITted function on the pipeline so it doesn't recompile on the 2nd run
    if not hasattr(self, "_jitted_vocoder"):
      self._jitted_vocoder = nnx.jit(lambda m, x: m(x))
    
    audio = self._jitted_vocoder(self.vocoder, generated_mel_spectrograms)
    jax.block_until_ready(audio)

    # Convert audio to numpy
    audio = np.array(audio)
    return audio


# scaffolding: three generations with the same shapes, as a user rendering several prompts with one pipeline
pipeline = LTX2Pipeline()
calls = 0
for seed in range(3):
  mel = jax.random.normal(jax.random.PRNGKey(seed), (1, 32, 16, 2))
  audio = pipeline.decode_audio(mel)
  calls += 1
_report({"jit(<lambda>)"}, calls)
