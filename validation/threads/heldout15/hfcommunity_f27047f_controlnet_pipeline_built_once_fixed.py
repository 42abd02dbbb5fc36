# source: https://github.com/huggingface/community-events/commit/f27047f5b6aaac5dafd64ae63a9a76fe8dd9b5d4
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The commit's fix: the pipeline is built once in main and passed to log_validation, so the static pipeline argument is the same object every time and generate compiles once for 3 validations.

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
import types  # scaffolding
from functools import partial  # scaffolding

import jax
import jax.numpy as jnp
import numpy as np
from flax import jax_utils
from flax.training.common_utils import shard

logger = logging.getLogger(__name__)


class _Img:  # scaffolding: PIL is not installed; a gray 8x8 RGB image
    def convert(self, mode):
        return np.full((8, 8, 3), 128, np.uint8)


Image = types.SimpleNamespace(open=lambda path: _Img())  # scaffolding: PIL.Image


# scaffolding: diffusers' FlaxStableDiffusionControlNetPipeline cut to its jit=True path; like diffusers,
# the pmapped generate function takes the pipeline object itself as a static (broadcast) argument
@partial(jax.pmap, in_axes=(None, 0, 0, 0, 0, None), static_broadcasted_argnums=(0, 5))
def _p_generate(pipe, prompt_ids, image, params, prng_seed, num_inference_steps):
    return pipe._generate(prompt_ids, image, params, prng_seed, num_inference_steps)


class FlaxStableDiffusionControlNetPipeline:  # scaffolding
    def __init__(self, controlnet, dtype):
        self.controlnet = controlnet
        self.dtype = dtype

    @classmethod
    def from_pretrained(cls, name, tokenizer, controlnet, safety_checker, dtype, revision, from_pt):
        params = {"text_encoder": jnp.ones((16, 8)), "unet": jnp.eye(8), "controlnet": None}
        return cls(controlnet, dtype), params

    def prepare_text_inputs(self, prompts):
        return np.array([[ord(ch) % 16 for ch in p[:4].ljust(4)] for p in prompts], np.int32)

    def prepare_image_inputs(self, images):
        return np.stack([np.asarray(im, np.float32)[:8, :8, 0] / 255.0 for im in images])

    def _generate(self, prompt_ids, image, params, prng_seed, num_inference_steps):
        cond = params["text_encoder"][prompt_ids].mean(axis=1)
        latents = jax.random.normal(prng_seed, image.shape)

        def step(i, x):
            return x @ params["unet"] + 0.1 * image @ params["controlnet"] + cond[:, None, :]

        return jax.lax.fori_loop(0, num_inference_steps, step, latents)

    def __call__(self, prompt_ids, image, params, prng_seed, num_inference_steps, jit=False):
        images = _p_generate(self, prompt_ids, image, params, prng_seed, num_inference_steps)
        return types.SimpleNamespace(images=np.asarray(images)[..., None])

    def numpy_to_pil(self, images):
        return list(images)


# jax-controlnet-sprint/training_scripts/train_controlnet_flax.py (after the commit)
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

    return image_logs  # scaffolding: wandb / tensorboard logging cut


# scaffolding: the part of main() that builds the pipeline once and calls log_validation every validation_steps
args = types.SimpleNamespace(pretrained_model_name_or_path="tiny", revision=None, from_pt=False,  # scaffolding
                             validation_image=["cond.png"], validation_prompt=["red circle"],
                             validation_steps=2, report_to=None)
controlnet = object()  # scaffolding
tokenizer = None  # scaffolding
weight_dtype = jnp.float32  # scaffolding
controlnet_params = jax_utils.replicate(jnp.eye(8))  # scaffolding: state.params
validation_rng = jax.random.PRNGKey(0)  # scaffolding
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
for global_step in range(1, 7):  # scaffolding: 6 training steps
    if args.validation_prompt is not None and global_step % args.validation_steps == 0:
        _ = log_validation(pipeline, pipeline_params, controlnet_params, tokenizer, args, validation_rng, weight_dtype)
        calls += 1  # scaffolding
_report({"jit(_fun)"}, calls)  # scaffolding: pmap compiles under the name jit(_fun) on jax 0.10.2
