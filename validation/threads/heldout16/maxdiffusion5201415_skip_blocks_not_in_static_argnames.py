# source: https://github.com/AI-Hypercomputer/maxdiffusion/commit/52014155e7076af6ff21b8539638fe97c9618715
# expect: bad-static-spec at line 70
# runtime: ERROR TracerBoolConversionError
# why: transformer_forward_pass's static_argnames leave out skip_blocks, a Python bool that the transformer branches on with if skip_blocks:, so inside the jitted call the flag is a tracer and the branch raises TracerBoolConversionError.

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
from flax import nnx


class WanModel(nnx.Module):  # scaffolding: a two-block MLP in place of WanModel; the block-skipping part of __call__ as written
  def __init__(self, dim=8, rngs=None):
    self.block1 = nnx.Linear(dim, dim, rngs=rngs)
    self.block2 = nnx.Linear(dim, dim, rngs=rngs)
    self.proj_out = nnx.Linear(dim, dim, rngs=rngs)

  def __call__(self, hidden_states, timestep, encoder_hidden_states, encoder_hidden_states_image=None,
               skip_blocks=None, cached_residual=None, return_residual=False):
    hidden_states = hidden_states + encoder_hidden_states + timestep[:, None, None]  # scaffolding

    def _run_all_blocks(h_out):  # scaffolding
      for block in (self.block1, self.block2):
        h_out = h_out + jnp.tanh(block(h_out))
      return h_out

    # src/maxdiffusion/models/wan/transformers/transformer_wan.py, WanModel.__call__
    hidden_states_before_blocks = hidden_states

    if skip_blocks:
      if cached_residual is None:
        raise ValueError("cached_residual must be provided when skip_blocks is True")
      hidden_states = hidden_states + cached_residual
    else:
      hidden_states = _run_all_blocks(hidden_states)

    residual_x = hidden_states - hidden_states_before_blocks

    hidden_states = self.proj_out(hidden_states)  # scaffolding: norm_out/proj_out/unpatchify cut

    if return_residual:
      return hidden_states, residual_x
    return hidden_states


# src/maxdiffusion/pipelines/wan/wan_pipeline.py (before the commit)
@partial(jax.jit, static_argnames=("do_classifier_free_guidance", "guidance_scale", "return_residual"))
def transformer_forward_pass(
    graphdef,
    sharded_state,
    rest_of_state,
    latents,
    timestep,
    prompt_embeds,
    do_classifier_free_guidance,
    guidance_scale,
    encoder_hidden_states_image=None,
    skip_blocks=None,
    cached_residual=None,
    return_residual=False,
):
  wan_transformer = nnx.merge(graphdef, sharded_state, rest_of_state)
  outputs = wan_transformer(
      hidden_states=latents,
      timestep=timestep,
      encoder_hidden_states=prompt_embeds,
      encoder_hidden_states_image=encoder_hidden_states_image,
      skip_blocks=skip_blocks,
      cached_residual=cached_residual,
      return_residual=return_residual,
  )
  
  if return_residual:
    noise_pred, residual_x = outputs
  else:
    noise_pred = outputs

  if do_classifier_free_guidance:
    bsz = latents.shape[0] // 2
    noise_cond = noise_pred[:bsz]  # First half = conditional
    noise_uncond = noise_pred[bsz:]  # Second half = unconditional
    noise_pred = noise_uncond + guidance_scale * (noise_cond - noise_uncond)

    latents = latents[:bsz]

  if return_residual:
    return noise_pred, latents, residual_x
  return noise_pred, latents


# scaffolding: the MagCache denoising loop of wan_pipeline_2_1.py cut to its call (skip decision replaced by
# "skip step 2", the Euler scheduler step by a plain update), 4 steps without classifier-free guidance
graphdef, sharded_state, rest_of_state = nnx.split(WanModel(rngs=nnx.Rngs(0)), nnx.Param, ...)
latents = jax.random.normal(jax.random.PRNGKey(0), (1, 4, 8))
prompt_cond_embeds = jnp.ones((1, 4, 8)) * 0.1
cached_residual = None
do_cfg, guidance_scale, bsz = False, 5.0, 1
calls = 0
try:  # scaffolding
  for step in range(4):
    t = jnp.array(1000 - 250 * step, dtype=jnp.int32)
    timestep = jnp.broadcast_to(t, bsz * 2 if do_cfg else bsz)
    skip_blocks = step == 2  # scaffolding
    outputs = transformer_forward_pass(
        graphdef,
        sharded_state,
        rest_of_state,
        jnp.concatenate([latents] * 2) if do_cfg else latents,
        timestep,
        prompt_cond_embeds,
        do_classifier_free_guidance=do_cfg,
        guidance_scale=guidance_scale,
        skip_blocks=bool(skip_blocks),
        cached_residual=cached_residual,
        return_residual=True,
    )

    noise_pred, latents_returned, residual_x_cur = outputs

    if not skip_blocks:
      cached_residual = residual_x_cur

    latents = latents_returned - 0.1 * noise_pred  # scaffolding: scheduler.step
    calls += 1
  _report({"jit(transformer_forward_pass)"}, calls)
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")
