# source: https://github.com/AI-Hypercomputer/maxdiffusion/commit/de4566506f6d1a6d3d441d540b42d6052967cc77
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the commit converts each rule to a tuple, so the static argument hashes and run_diffusion_loop compiles once for 2 calls.

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


from functools import partial

import jax
import jax.numpy as jnp
from flax.linen import partitioning as nn_partitioning


# src/maxdiffusion/pipelines/ltx2/ltx2_pipeline.py (after the commit): the jitted loop's decorator and signature
@partial(
    jax.jit,
    static_argnames=(
        "guidance_scale",
        "latent_num_frames",
        "latent_height",
        "latent_width",
        "audio_num_frames",
        "fps",
        "batch_size",
        "scan_layers",
        "scheduler_step",
        "logical_axis_rules",
    ),
)
def run_diffusion_loop(
    graphdef,
    state,
    scheduler_state,
    timesteps_jax,
    latents_jax,
    audio_latents_jax,
    video_embeds_sharded,
    audio_embeds_sharded,
    new_attention_mask,
    guidance_scale,
    latent_num_frames,
    latent_height,
    latent_width,
    audio_num_frames,
    fps,
    batch_size,
    scan_layers,
    scheduler_step,
    logical_axis_rules,
):
    # scaffolding: the LTX-2 transformer replaced by a linear map; the scan over timesteps and the axis-rules context kept
    def scan_body(carry, t):
        latents, audio_latents, s_state = carry
        with nn_partitioning.axis_rules(logical_axis_rules):
            noise_pred = latents * state + t
            noise_pred_audio = audio_latents * state + t
            latents, s_state = scheduler_step(s_state, noise_pred, t, latents)
            audio_latents, _ = scheduler_step(s_state, noise_pred_audio, t, audio_latents)
        return (latents, audio_latents, s_state), None

    (latents, audio_latents, _), _ = jax.lax.scan(scan_body, (latents_jax, audio_latents_jax, scheduler_state), timesteps_jax)
    return latents, audio_latents


class Scheduler:  # scaffolding: a flow-matching Euler step
    @staticmethod
    def step(state, model_output, t, sample):
        return sample - 0.1 * model_output, state


class Config:  # scaffolding: pyconfig loads logical_axis_rules from YAML as a list of [name, axes] lists
    logical_axis_rules = [["batch", "data"], ["activation_batch", "data"], ["activation_length", None], ["embed", None]]


class LTX2Pipeline:  # scaffolding: the call of run_diffusion_loop as written in __call__; its traced arguments replaced by small stand-ins
    def __init__(self):
        self.config = Config()
        self.scheduler = Scheduler()
        self.scan_layers = True

    def __call__(self, latents_jax, audio_latents_jax, timesteps, guidance_scale=1.0, batch_size=1):
      timesteps_jax = jnp.array(timesteps, dtype=jnp.float32)
      latents_jax, audio_latents_jax = run_diffusion_loop(
          None,
          jnp.float32(0.5),
          jnp.float32(0.0),
          timesteps_jax,
          latents_jax,
          audio_latents_jax,
          None,
          None,
          None,
          guidance_scale,
          4,
          8,
          8,
          16,
          24,
          batch_size,
          self.scan_layers,
          self.scheduler.step,
          tuple(tuple(rule) if isinstance(rule, list) else rule for rule in self.config.logical_axis_rules),
      )
      return latents_jax, audio_latents_jax


pipeline = LTX2Pipeline()
calls = 0
try:  # scaffolding
    for seed in (0, 1):
        latents = jax.random.normal(jax.random.PRNGKey(seed), (1, 256, 8))
        audio = jax.random.normal(jax.random.PRNGKey(seed + 10), (1, 16, 8))
        pipeline(latents, audio, [1.0, 0.75, 0.5, 0.25])
        calls += 1
    _report({"jit(run_diffusion_loop)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
