# source: https://github.com/huggingface/diffusers/pull/1096
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the PR's fix: guidance_scale is no longer static but a per-device array mapped over its first axis (in_axes 0), so changing the slider value reuses the compiled _p_generate (1 compile for 3 scales).
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


class FlaxStableDiffusionPipeline:  # scaffolding: stands in for the pipeline; _generate runs a tiny denoising loop
    def _generate(self, prompt_ids, params, prng_seed, num_inference_steps, height, width, guidance_scale, latents):  # scaffolding
        def loop_body(step, latents):  # scaffolding
            noise_pred_uncond, noise_prediction_text = latents * params, latents * prompt_ids  # scaffolding
            noise_pred = noise_pred_uncond + guidance_scale * (noise_prediction_text - noise_pred_uncond)
            return latents - 0.1 * noise_pred  # scaffolding
        return jax.lax.fori_loop(0, num_inference_steps, loop_body, latents)  # scaffolding


# Static argnums are pipe, num_inference_steps, height, width. A change would trigger recompilation.
# Non-static args are (sharded) input tensors mapped over their first dimension (hence, `0`).
@partial(
    jax.pmap,
    in_axes=(None, 0, 0, 0, None, None, None, 0, 0),
    static_broadcasted_argnums=(0, 4, 5, 6),
)
def _p_generate(pipe, prompt_ids, params, prng_seed, num_inference_steps, height, width, guidance_scale, latents):
    return pipe._generate(prompt_ids, params, prng_seed, num_inference_steps, height, width, guidance_scale, latents)


pipe = FlaxStableDiffusionPipeline()  # scaffolding
n = jax.local_device_count()  # scaffolding
prompt_ids = jnp.ones((n, 4))  # scaffolding
params = jnp.ones((n, 4))  # scaffolding
prng_seed = jax.random.split(jax.random.PRNGKey(0), n)  # scaffolding
latents = jnp.ones((n, 4))  # scaffolding
for guidance_scale in (7.5, 8.0, 9.0):  # scaffolding: the demo's guidance slider
    guidance_scale = jnp.array([guidance_scale] * n, dtype=jnp.float32)
    images = _p_generate(pipe, prompt_ids, params, prng_seed, 4, 64, 64, guidance_scale, latents)
_report({"jit(_fun)"}, 3)  # scaffolding: pmap compiles under the name jit(_fun) on jax 0.10.2
