# source: https://github.com/openai/consistency_models_cifar10/blob/1ba9b5c54ad83c568122f85afcd22dbba45e5690/editing_multistep_sampling.ipynb
# expect: jit-in-loop-or-body at line 141
# runtime: COMPILES 2 CALLS 2
# why: get_onestep_sampler wraps a fresh sampler closure in jax.pmap on every call, and the notebook calls it again in cell 11 with the same sde, model and init_std=80. instead of reusing cell 8's sampler, so the identical one-step sampler is traced and compiled a second time for inputs of the same shape.

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
# cell 0
import os  # scaffolding
os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"  # scaffolding: the notebook ran on 8 accelerators (interp_z has 64 = 8 x 8 images)
# (%load_ext autoreload / %autoreload / %env cut: scaffolding)

from typing import Any

import flax
import flax.jax_utils  # scaffolding: imported by jcm in the notebook
import jax
import jax.numpy as jnp
import numpy as np
import haiku as hk
import math
import math

# from jcm import checkpoints, losses, sde_lib; from jcm.models import ddpm, ncsnv2, ncsnpp
# from jcm.models import utils as mutils; import matplotlib.pyplot as plt; from jcm import datasets
# (scaffolding: the jcm package, its NCSN++ model and the checkpoint are not available;
#  the stand-ins below keep the interfaces the cells use)
import types  # scaffolding


@flax.struct.dataclass
class _State:  # scaffolding: jcm/models/utils.py State
    step: int
    lr: float
    ema_rate: float
    params: Any
    params_ema: Any
    model_state: Any
    opt_state: Any
    rng_state: Any


def _init_model(rng, config):  # scaffolding: a tiny stand-in for the NCSN++ network
    params = {"w": jax.random.normal(rng, (3,)) * 0.1}  # scaffolding
    return "ncsnpp-stand-in", {}, params  # scaffolding


def _get_distiller_fn(sde, model, params, states, train=False, return_state=False, pred_t=None):  # scaffolding: jcm/models/utils.py, with a stand-in model_fn
    if pred_t is None:  # scaffolding
        pred_t = sde.t_min  # scaffolding

    def distiller_fn(x, t, rng=None):  # scaffolding
        c = jnp.sqrt(t**2 + sde.data_std**2)[:, None, None, None]  # scaffolding
        denoiser = jnp.tanh(x / c * params["w"])  # scaffolding: stand-in network output
        denoiser = denoiser * ((t - pred_t) * sde.data_std)[:, None, None, None] / c  # scaffolding
        skip_x = x * (sde.data_std**2 / ((t - pred_t) ** 2 + sde.data_std**2))[:, None, None, None]  # scaffolding
        return skip_x + denoiser  # scaffolding

    return distiller_fn  # scaffolding


mutils = types.SimpleNamespace(init_model=_init_model, get_distiller_fn=_get_distiller_fn, State=_State)  # scaffolding
config = types.SimpleNamespace(sampling=types.SimpleNamespace(std=80.0), model=types.SimpleNamespace(ema_rate=0.9999))  # scaffolding: configs/cifar10_ve_cd.py values used here
sde_lib = types.SimpleNamespace(get_sde=lambda config: types.SimpleNamespace(t_min=0.002, t_max=80.0, rho=7.0, N=18, data_std=0.5))  # scaffolding: KVESDE values
plt = types.SimpleNamespace(figure=lambda **k: None, imshow=lambda *a, **k: None, axis=lambda *a: None)  # scaffolding
_CALLS = [0]  # scaffolding

# cell 2
## Load CD models
# from configs.cifar10_ve_cd import get_config  (scaffolding: config stand-in above)
# config = get_config()
rng = hk.PRNGSequence(42)
model, init_model_state, initial_params = mutils.init_model(next(rng), config)
# optimizer, optimize_fn = losses.get_optimizer(config)  (scaffolding: no optimizer needed for sampling)
state = mutils.State(
    step=0,
    lr=4e-4,
    ema_rate=config.model.ema_rate,
    params=initial_params,
    params_ema=initial_params,
    model_state=init_model_state,
    opt_state=None,  # scaffolding: optimizer.init(initial_params)
    rng_state=rng.internal_state,
)

## You need to manually download the checkpoint first.
# checkpoint_dir = "/path/to/ct/checkpoints"  (scaffolding: checkpoint restore cut)
# state = checkpoints.restore_checkpoint(checkpoint_dir, state, step=80)

sde = sde_lib.get_sde(config)

pstate = flax.jax_utils.replicate(state)

# cell 5
sample_rng = next(rng)
init_z = jax.random.normal(sample_rng, (jax.device_count(), 8, 32, 32, 3))
def plot_grid(samples):
    samples = samples / 2. + 0.5
    samples = samples.transpose((0, 2, 1, 3, 4))
    samples = samples.reshape((samples.shape[0] * samples.shape[1], samples.shape[2] * samples.shape[3], samples.shape[4]))
    plt.figure(figsize=(10,10))
    plt.imshow(samples)
    plt.axis('off')

# cell 7
def get_onestep_sampler(sde, model, init_std=config.sampling.std):
    def sampler(state, z):        
        x = z
        model_fn = mutils.get_distiller_fn(
            sde,
            model,
            state.params_ema,
            state.model_state,
            train=False,
            return_state=False,
        )
        samples = model_fn(x, jnp.ones((x.shape[0],)) * init_std)
        return samples, 1

    return jax.pmap(sampler, axis_name="batch")

# cell 8
onestep_sampler = get_onestep_sampler(sde, model, init_std=80.)
onestep_samples = onestep_sampler(pstate, init_z * 80.)[0].clip(-1,1)
_CALLS[0] += 1  # scaffolding
plot_grid(onestep_samples)

# cell 10
def slerp(z1, z2, t):
    z1 = z1.reshape((-1,))
    z2 = z2.reshape((-1,))
    z1norm = z1 / jnp.linalg.norm(z1, axis=-1, keepdims=True)
    z2norm = z2 / jnp.linalg.norm(z2, axis=-1, keepdims=True)
    dot = jnp.sum(z1norm * z2norm, axis=-1, keepdims=True)
    dot = jnp.clip(dot, -1., 1.)
    theta = jnp.arccos(dot)
    return jnp.sin((1. - t) * theta) / jnp.sin(theta) * z1 + jnp.sin(t * theta) / jnp.sin(theta) * z2

slerp = jax.vmap(slerp, in_axes=(None, None, 0), out_axes=0)

# cell 11
z1 = jax.random.normal(next(rng), (32, 32, 3))
z2 = jax.random.normal(next(rng), (32, 32, 3))
onestep_sampler = get_onestep_sampler(sde, model, init_std=80.)
zs = slerp(z1, z2, jnp.linspace(0., 1., 62))
interp_z = jnp.concatenate([z1[None, ...], zs.reshape((62, 32, 32, 3)), z2[None, ...]], axis=0).reshape(init_z.shape)
interp_samples, _ = onestep_sampler(pstate, interp_z * 80)
_CALLS[0] += 1  # scaffolding
plot_grid(interp_samples)

_report({"jit(_fun)"}, _CALLS[0])  # scaffolding: jax 0.10.2 names a pmap compile "jit(_fun)"
