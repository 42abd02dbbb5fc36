# source: https://github.com/novaia/ntg/blob/cb770a5dc7e1be81e2f143ec1a75f937c3b229c4/sampling/diffusion.py
# expect: jit-in-loop-or-body at line 69
# runtime: COMPILES 4 CALLS 80
# why: implicit() wraps inference_fn in jax.jit inside its own body and closes over params, so every preview call (fixed and dynamic seed, every epoch) traces and compiles the model again.

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
import jax
from jax import lax
from jax import numpy as jnp
from flax import linen as nn  # scaffolding
from functools import partial

from typing import Callable, Any


class Terra(nn.Module):  # scaffolding: tiny stand-in for the repo's U-Net
    @nn.compact
    def __call__(self, x, diffusion_times):
        return nn.Conv(1, kernel_size=(3, 3))(x) + diffusion_times


def diffusion_schedule(diffusion_times, min_signal_rate, max_signal_rate):
    start_angle = jnp.arccos(max_signal_rate)
    end_angle = jnp.arccos(min_signal_rate)
    diffusion_angles = start_angle + diffusion_times * (end_angle - start_angle)

    signal_rates = jnp.cos(diffusion_angles)
    noise_rates = jnp.sin(diffusion_angles)
    return noise_rates, signal_rates


# TODO: figure out what this sampling method is called, it is implicit reverse diffusion
# since it skips steps but I'm pretty sure there is a more specific name.
def implicit(
    apply_fn:Callable,
    params:Any,
    num_images:int, 
    diffusion_steps:int, 
    diffusion_schedule:Callable,
    image_width:int, 
    image_height:int, 
    channels:int,
    min_signal_rate:float,
    max_signal_rate:float,
    seed:int, 
):
    @jax.jit
    def inference_fn(noisy_images, diffusion_times):
        return lax.stop_gradient(apply_fn({'params': params}, noisy_images, diffusion_times))
    
    initial_noise = jax.random.normal(
        jax.random.PRNGKey(seed), 
        shape=(num_images, image_height, image_width, channels)
    )
    step_size = 1.0 / diffusion_steps
    
    next_noisy_images = initial_noise
    for step in range(diffusion_steps):
        noisy_images = next_noisy_images
        
        diffusion_times = jnp.ones((num_images, 1, 1, 1)) - step * step_size
        noise_rates, signal_rates = diffusion_schedule(
            diffusion_times, min_signal_rate, max_signal_rate
        )
        pred_noises = inference_fn(noisy_images, noise_rates**2)
        pred_images = (noisy_images - noise_rates * pred_noises) / signal_rates
        
        next_diffusion_times = diffusion_times - step_size
        next_noise_rates, next_signal_rates = diffusion_schedule(
            next_diffusion_times, min_signal_rate, max_signal_rate
        )
        next_noisy_images = (next_signal_rates * pred_images + next_noise_rates * pred_noises)
    return pred_images


# --- from models/terra.py main(); training, checkpointing and image saving are scaffolding-cut ---
model = Terra()  # scaffolding
image_size = 8  # scaffolding: config['image_size']
params = model.init(jax.random.PRNGKey(0), jnp.ones((1, image_size, image_size, 1)), jnp.ones((1, 1, 1, 1)))['params']  # scaffolding
min_signal_rate = 0.02  # scaffolding: config['min_signal_rate']
max_signal_rate = 0.95  # scaffolding: config['max_signal_rate']
sample_fn = partial(
    implicit,
    num_images=16,
    diffusion_steps=20,
    diffusion_schedule=diffusion_schedule,
    image_width=image_size,
    image_height=image_size,
    channels=1,
    min_signal_rate=min_signal_rate,
    max_signal_rate=max_signal_rate,
)

n_calls = 0  # scaffolding
for epoch in range(2):  # scaffolding: config['epochs'] cut to 2, one preview per epoch
    step = (epoch + 1) * 100  # scaffolding: state.step
    fixed_seed_samples = sample_fn(apply_fn=model.apply, params=params, seed=0)
    dynamic_seed_samples = sample_fn(apply_fn=model.apply, params=params, seed=step)
    n_calls += 2 * 20  # scaffolding: inference_fn calls
_report({"jit(inference_fn)"}, n_calls)
