# source: https://github.com/peter-grajcar/jax-diffusion/commit/51ee956c1b565cec326f99ccd7268260be1fbd01
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: train.py wraps generate with jax.jit(generate, static_argnums=[0, 4]) and passes state.apply_fn (a bound flax Module.apply, hashed by its module) as a static callable every epoch, and generate loops over a traced array; it compiles once.
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
import optax
import jax.numpy as jnp
from typing import Any, Callable
from functools import partial
from flax.training import train_state
import flax.linen as nn  # scaffolding


class TrainState(train_state.TrainState):
    batch_stats: Any
    key: jax.random.PRNGKey
    ema_variables: dict
    ema_momentum: float


class DiffusionModel(nn.Module):  # scaffolding: stand-in for model.DiffusionModel (a conditioned U-Net)
    channels: int = 8

    @nn.compact
    def __call__(self, images, conditioning, noise_rates, train=False):
        x = jnp.concatenate([images, conditioning, jnp.broadcast_to(noise_rates, images.shape)], axis=-1)
        x = nn.Conv(self.channels, (3, 3))(x)
        x = nn.BatchNorm(use_running_average=not train)(x)
        return nn.Conv(1, (3, 3))(nn.relu(x))


@jax.jit
def diffusion_rates(times: jnp.ndarray):
    starting_angle, final_angle = 0.025, jnp.pi / 2 - 0.025
    signal_rates = jnp.cos((1 - times) * starting_angle + times * final_angle)[..., None, None, None]
    noise_rates = jnp.sin((1 - times) * starting_angle + times * final_angle)[..., None, None, None]
    return signal_rates, noise_rates


@jax.jit
def train_step(state: TrainState, batch: tuple[jnp.ndarray, jnp.ndarray]):
    images, conditioning = batch

    key, noise_key, time_key = jax.random.split(state.key, 3)
    state = state.replace(key=key)
    noises = jax.random.normal(noise_key, images.shape)
    times = jax.random.uniform(time_key, images.shape[:1])

    signal_rates, noise_rates = diffusion_rates(times)
    noisy_images = signal_rates * images + noise_rates * noises

    def loss_fn(params):
        predicted_noises, updates = state.apply_fn(
            {"params": params, "batch_stats": state.batch_stats},
            noisy_images,
            conditioning,
            noise_rates,
            train=True,
            mutable=["batch_stats"],
        )
        loss = jnp.abs(noises - predicted_noises).mean()
        return loss, (predicted_noises, updates)

    # Gradient update
    grad_fn = jax.value_and_grad(loss_fn, has_aux=True)
    (loss, (predicted_noises, updates)), grads = grad_fn(state.params)
    state = state.apply_gradients(grads=grads)
    state = state.replace(batch_stats=updates["batch_stats"])

    # Exponential moving average update
    ema_variables = optax.incremental_update(
        {"params": state.params, "batch_stats": state.batch_stats},
        state.ema_variables,
        state.ema_momentum
    )
    state = state.replace(ema_variables=ema_variables)

    return state, loss


# @partial(jax.jit, static_argnums=[0, 4])
def generate(apply_fn: Callable, variables: dict, initial_noise: jnp.ndarray, conditioning: jnp.ndarray, num_steps: int):
    images = initial_noise
    diffusion_process = []

    steps = jnp.linspace(jnp.ones(initial_noise.shape[:1]), jnp.zeros(initial_noise.shape[:1]), num_steps + 1)

    for times, next_times in zip(steps[:-1], steps[1:]):
        diffusion_process.append(images)

        signal_rates, noise_rates = diffusion_rates(times)

        predicted_noises = apply_fn(
            variables,
            images,
            conditioning,
            noise_rates,
            train=False,
        )

        denoised_images = (images - noise_rates * predicted_noises) / signal_rates

        next_signal_rates, next_noise_rates = diffusion_rates(next_times)

        images = next_signal_rates * denoised_images + next_noise_rates * predicted_noises

    return images, diffusion_process


# --- train.py (main block), reduced ---
key = jax.random.PRNGKey(42)  # scaffolding
model = DiffusionModel()  # scaffolding: the repo builds DiffusionModel(stages=..., ...)
x0 = jnp.zeros((2, 8, 8, 1))  # scaffolding: stand-in for mel-spectrogram batches
variables = model.init(key, x0, x0, jnp.zeros((2, 1, 1, 1)))  # scaffolding
state = TrainState.create(  # scaffolding (same fields as the repo's TrainState)
    apply_fn=model.apply, params=variables["params"], tx=optax.adam(1e-3),
    batch_stats=variables["batch_stats"], key=key, ema_variables=variables, ema_momentum=0.99)
dev = (jax.random.normal(key, x0.shape), x0, x0)  # scaffolding: (noise, original, augmented)

generate = jax.jit(generate, static_argnums=[0, 4])

n_calls = 0  # scaffolding
for epoch in range(4):  # scaffolding: 4 epochs
    for _ in range(2):  # scaffolding: 2 batches per epoch
        state, loss = train_step(state, (x0 + epoch, x0))

    # Validation
    noise, original, augmented = dev
    generated, _ = generate(state.apply_fn, state.ema_variables, noise, augmented, 3)  # scaffolding: 3 sampling steps
    n_calls += 1
    val_mse = optax.squared_error(original, generated).mean()

_report({"jit(generate)"}, n_calls)
