# source: https://github.com/novaia/ntg/blob/cb770a5dc7e1be81e2f143ec1a75f937c3b229c4/models/terra.py
# expect: none
# runtime: COMPILES 1 CALLS 6
# why: train_step marks the float config values min_signal_rate/max_signal_rate as static; they are the same Python floats every step, so it compiles once.

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
from jax import numpy as jnp
from flax import struct
from flax import linen as nn
from flax.training.train_state import TrainState
import optax
from functools import partial
from copy import deepcopy


class Terra(nn.Module):  # scaffolding: tiny stand-in for the repo's U-Net
    @nn.compact
    def __call__(self, x, diffusion_times):
        return nn.Conv(1, kernel_size=(3, 3))(x) + diffusion_times


class EmaTrainState(TrainState):
    ema_warmup: int = struct.field(pytree_node=False)
    ema_decay: float = struct.field(pytree_node=False)
    ema_params: dict = struct.field(pytree_node=True)
    
    def update_ema(self):
        def true_fn(state):
            def _update_ema(ema_param, base_param):
                return state.ema_decay * ema_param + (1 - state.ema_decay) * base_param

            new_ema_params = jax.tree_util.tree_map(_update_ema, state.ema_params, state.params)
            return state.replace(ema_params=new_ema_params)

        def false_fn(state):
            return state.replace(ema_params=self.params)

        return jax.lax.cond(self.step <= self.ema_warmup, false_fn, true_fn, self)

def diffusion_schedule(diffusion_times, min_signal_rate, max_signal_rate):
    start_angle = jnp.arccos(max_signal_rate)
    end_angle = jnp.arccos(min_signal_rate)
    diffusion_angles = start_angle + diffusion_times * (end_angle - start_angle)

    signal_rates = jnp.cos(diffusion_angles)
    noise_rates = jnp.sin(diffusion_angles)
    return noise_rates, signal_rates

@partial(jax.jit, static_argnames=['min_signal_rate', 'max_signal_rate'])
def train_step(state, images, min_signal_rate, max_signal_rate):
    key = jax.random.PRNGKey(state.step)
    images = (images / 127.5) - 1.0
    noise_key, diffusion_time_key = jax.random.split(key, 2)
    noises = jax.random.normal(noise_key, images.shape, dtype=jnp.float32)
    diffusion_times = jax.random.uniform(diffusion_time_key, (images.shape[0], 1, 1, 1))
    noise_rates, signal_rates = diffusion_schedule(
        diffusion_times, min_signal_rate, max_signal_rate
    )
    noisy_images = signal_rates * images + noise_rates * noises

    def loss_fn(params):
        pred_noises = state.apply_fn({'params': params}, noisy_images, noise_rates**2)
        return jnp.mean((pred_noises - noises)**2)

    grad_fn = jax.value_and_grad(loss_fn)
    loss, grads = grad_fn(state.params)
    state = state.apply_gradients(grads=grads).update_ema()
    return loss, state


# --- from main(); config values and data are scaffolding ---
config = {'batch_size': 4, 'image_size': 8, 'min_signal_rate': 0.02, 'max_signal_rate': 0.95,
          'ema_warmup': 2, 'ema_decay': 0.999, 'epochs': 2}  # scaffolding
steps_per_epoch = 3  # scaffolding
model = Terra()  # scaffolding
x = jnp.ones((config['batch_size'], config['image_size'], config['image_size'], 1))
diffusion_times = jnp.ones((config['batch_size'], 1, 1, 1))
params = model.init(jax.random.PRNGKey(0), x, diffusion_times)['params']
tx = optax.adam(1e-3)  # scaffolding: the repo chains zero_nans/adaptive_grad_clip/config optimizer
state = EmaTrainState.create(
    apply_fn=model.apply, params=params, tx=tx, 
    ema_warmup=config['ema_warmup'], ema_decay=config['ema_decay'], 
    ema_params=deepcopy(params)
)
min_signal_rate = config['min_signal_rate']
max_signal_rate = config['max_signal_rate']
n_calls = 0  # scaffolding
for epoch in range(config['epochs']):
    for _ in range(steps_per_epoch):
        images = jax.random.randint(jax.random.PRNGKey(n_calls), x.shape, 0, 255).astype(jnp.float32)  # scaffolding: dataset batch
        loss, state = train_step(state, images, min_signal_rate, max_signal_rate)
        n_calls += 1  # scaffolding
_report({"jit(train_step)"}, n_calls)
