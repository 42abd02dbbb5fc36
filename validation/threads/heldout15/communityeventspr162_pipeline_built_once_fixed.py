# source: https://github.com/huggingface/community-events/pull/162
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The PR builds the pipeline once in main() and passes it (with its replicated params) into log_validation, so the static pipe argument is the same object every round and generation compiles once: 1 compile for 3 validation rounds.
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
import logging
from argparse import Namespace  # scaffolding
from functools import partial  # scaffolding
import numpy as np  # scaffolding
import jax
import jax.numpy as jnp
from flax import jax_utils
from flax.training.common_utils import shard

logger = logging.getLogger(__name__)


@partial(  # scaffolding: copied from diffusers pipeline_flax_controlnet.py
    jax.pmap,  # scaffolding
    in_axes=(None, 0, 0, 0, 0, None, 0, 0, 0, 0),  # scaffolding
    static_broadcasted_argnums=(0, 5),  # scaffolding
)  # scaffolding
def _p_generate(pipe, prompt_ids, image, params, prng_seed, num_inference_steps, guidance_scale, latents, neg_prompt_ids, controlnet_conditioning_scale):  # scaffolding
    return pipe._generate(prompt_ids, image, params, prng_seed, num_inference_steps, guidance_scale, latents, neg_prompt_ids, controlnet_conditioning_scale)  # scaffolding


class _Output:  # scaffolding
    def __init__(self, images):  # scaffolding
        self.images = images  # scaffolding


class FlaxStableDiffusionControlNetPipeline:  # scaffolding: stand-in for diffusers' pipeline
    def __init__(self, controlnet, dtype):  # scaffolding
        self.controlnet = controlnet  # scaffolding
        self.dtype = dtype  # scaffolding

    @classmethod  # scaffolding
    def from_pretrained(cls, name, tokenizer=None, controlnet=None, safety_checker=None, dtype=None, revision=None, from_pt=False):  # scaffolding
        params = {"unet": jnp.ones((8, 8)), "text_encoder": jnp.ones((16, 8))}  # scaffolding
        return cls(controlnet, dtype), params  # scaffolding

    def prepare_text_inputs(self, prompts):  # scaffolding
        return np.stack([np.arange(16) % (len(p) + 1) for p in prompts])  # scaffolding

    def prepare_image_inputs(self, images):  # scaffolding
        return np.stack([np.asarray(im, dtype=np.float32) for im in images])  # scaffolding

    def numpy_to_pil(self, images):  # scaffolding
        return list(images)  # scaffolding

    def _generate(self, prompt_ids, image, params, prng_seed, num_inference_steps, guidance_scale, latents, neg_prompt_ids, controlnet_conditioning_scale):  # scaffolding
        emb = jnp.take(params["text_encoder"], prompt_ids, axis=0).mean(axis=1)  # scaffolding
        x = jax.random.normal(prng_seed, image.shape[:1] + (8,))  # scaffolding
        for _ in range(num_inference_steps):  # scaffolding: unrolled denoising loop
            x = jnp.tanh(x @ params["unet"] + emb + controlnet_conditioning_scale * (image.mean() + params["controlnet"].sum()))  # scaffolding
        return x[:, None, :, None] * guidance_scale  # scaffolding

    def __call__(self, prompt_ids, image, params, prng_seed, num_inference_steps=50, guidance_scale=7.5, jit=False):  # scaffolding
        n = prompt_ids.shape[0]  # scaffolding
        g = jnp.full((n, prompt_ids.shape[1]), guidance_scale)  # scaffolding
        z = jnp.zeros((n,))  # scaffolding
        images = _p_generate(self, prompt_ids, image, params, prng_seed, num_inference_steps, g, z, z, jnp.ones((n,)))  # scaffolding
        return _Output(np.asarray(images))  # scaffolding


class Image:  # scaffolding: stand-in for PIL.Image
    @staticmethod  # scaffolding
    def open(path):  # scaffolding
        return Image()  # scaffolding

    def convert(self, mode):  # scaffolding
        return np.ones((4, 4, 3), dtype=np.float32)  # scaffolding


def log_validation(pipeline, pipeline_params, controlnet_params, tokenizer, args, rng, weight_dtype):
    logger.info("Running validation...")

    pipeline_params = pipeline_params.copy()
    pipeline_params["controlnet"] = controlnet_params

    num_samples = jax.device_count()
    prng_seed = jax.random.split(rng, jax.device_count())

    if len(args.validation_image) == len(args.validation_prompt):
        validation_images = args.validation_image
        validation_prompts = args.validation_prompt
    elif len(args.validation_image) == 1:
        validation_images = args.validation_image * len(args.validation_prompt)
        validation_prompts = args.validation_prompt
    elif len(args.validation_prompt) == 1:
        validation_images = args.validation_image
        validation_prompts = args.validation_prompt * len(args.validation_image)
    else:
        raise ValueError(
            "number of `args.validation_image` and `args.validation_prompt` should be checked in `parse_args`"
        )

    image_logs = []

    for validation_prompt, validation_image in zip(validation_prompts, validation_images):
        prompts = num_samples * [validation_prompt]
        prompt_ids = pipeline.prepare_text_inputs(prompts)
        prompt_ids = shard(prompt_ids)

        validation_image = Image.open(validation_image).convert("RGB")
        processed_image = pipeline.prepare_image_inputs(num_samples * [validation_image])
        processed_image = shard(processed_image)
        images = pipeline(
            prompt_ids=prompt_ids,
            image=processed_image,
            params=pipeline_params,
            prng_seed=prng_seed,
            num_inference_steps=50,
            jit=True,
        ).images

        images = images.reshape((images.shape[0] * images.shape[1],) + images.shape[-3:])
        images = pipeline.numpy_to_pil(images)

        image_logs.append(
            {"validation_image": validation_image, "images": images, "validation_prompt": validation_prompt}
        )

    return image_logs  # scaffolding: wandb logging tail left out


args = Namespace(  # scaffolding
    pretrained_model_name_or_path="runwayml/stable-diffusion-v1-5", revision=None, from_pt=True,  # scaffolding
    validation_image=["conditioning.png"], validation_prompt=["a red circle"],  # scaffolding
)  # scaffolding
controlnet_params = jax_utils.replicate(jnp.ones((3,)))  # scaffolding: state.params
validation_rng = jax.random.PRNGKey(0)  # scaffolding
controlnet, tokenizer, weight_dtype = None, None, jnp.float32  # scaffolding
pipeline, pipeline_params = FlaxStableDiffusionControlNetPipeline.from_pretrained(
    args.pretrained_model_name_or_path,
    tokenizer=tokenizer,
    controlnet=controlnet,
    safety_checker=None,
    dtype=weight_dtype,
    revision=args.revision,
    from_pt=args.from_pt,
)
pipeline_params = jax_utils.replicate(pipeline_params)
calls = 0  # scaffolding
for global_step in range(3):  # scaffolding: training loop, validation every validation_steps
    _ = log_validation(pipeline, pipeline_params, controlnet_params, tokenizer, args, validation_rng, weight_dtype)  # scaffolding
    calls += 1  # scaffolding
_report({"jit(_fun)"}, calls)  # scaffolding
