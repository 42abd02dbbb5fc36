# source: https://github.com/kvfrans/jax-diffusion-transformer/blob/94ea6076bd934ba687ac23a165e57ed8110619af/eval_fid.py
# expect: jit-in-loop-or-body at line 90
# runtime: COMPILES 4 CALLS 4
# why: Each FID sampling iteration builds jax.pmap(lambda x: jax.lax.all_gather(...)) anew and calls it, so the all-gather is re-traced and recompiled for every batch of samples.

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
import types
import numpy as np
import jax
import jax.numpy as jnp
import flax
import flax.jax_utils

FLAGS = types.SimpleNamespace(  # scaffolding: absl flags of eval_fid.py, cut down
    num_samples=8, batch_size=2, cfg_weight=4.0, use_cfg=False, use_stable_vae=False,  # scaffolding
    model={'diffusion_timesteps': 2},  # scaffolding: 500 in the repo config
)  # scaffolding


class _Model:  # scaffolding: stand-in for the pmapped DiffusionTrainer
    def denoise_step_no_cfg(self, x, t, labels, rng, cfg_weight_array):  # scaffolding
        return 0.9 * x  # scaffolding


def get_fid_network():  # scaffolding: stand-in for utils.fid.get_fid_network (InceptionV3)
    return lambda x: jnp.mean(x, axis=(2, 3), keepdims=True)[..., :1].repeat(16, axis=-1)  # scaffolding


def _next_labels():  # scaffolding: next(dataset) from tfds
    return None, np.zeros((FLAGS.batch_size,), dtype=np.int32)  # scaffolding


model = _Model()  # scaffolding
example_obs = np.zeros((FLAGS.batch_size, 8, 8, 3), dtype=np.float32)  # scaffolding: one dataset batch

example_obs = example_obs.reshape((len(jax.local_devices()), -1, *example_obs.shape[1:])) # [devices, batch//devices, etc..]
vmap_split = jax.vmap(jax.random.split, in_axes=(0))

get_fid_activations = get_fid_network()

activations = []
key = jax.random.PRNGKey(42 + jax.process_index())

num_iters = FLAGS.num_samples // FLAGS.batch_size


for i in range(num_iters):
    noise_key, iter_key, key = jax.random.split(key, 3)
    x = jax.random.normal(noise_key, example_obs.shape) # [devices, batch//devices, etc..]
    _, labels = _next_labels()  # scaffolding: next(dataset)
    labels = labels.reshape((len(jax.local_devices()), -1))

    iter_key = flax.jax_utils.replicate(iter_key, devices=jax.local_devices())
    iter_key += jnp.arange(len(jax.local_devices()), dtype=jnp.uint32)[:, None] * 1000
    for ti in range(FLAGS.model['diffusion_timesteps']):
        rng, iter_key = jnp.split(vmap_split(iter_key), 2, axis=-1)
        rng, iter_key = rng[...,0], iter_key[...,0]
        t = jnp.full((x.shape[0], x.shape[1]), FLAGS.model['diffusion_timesteps']-ti) # [devices, batch//devices]
        cfg_weight_array = jnp.full((x.shape[0],), FLAGS.cfg_weight)
        if FLAGS.use_cfg:
            x = model.denoise_step(x, t, labels, rng, cfg_weight_array)
        else:
            x = model.denoise_step_no_cfg(x, t, labels, rng, cfg_weight_array * 0.0)

    x = jax.image.resize(x, (x.shape[0], x.shape[1], 32, 32, 3), method='bilinear', antialias=False)  # scaffolding: 299x299 in the repo
    x = 2 * x - 1
    acts = get_fid_activations(x)[..., 0, 0, :] # [devices, batch//devices, 2048]
    acts = jax.pmap(lambda x: jax.lax.all_gather(x, 'i', axis=0), axis_name='i')(acts)[0] # [global_devices, batch//global_devices, 2048]
    acts = np.array(acts)
    activations.append(acts)

activations = np.concatenate(activations, axis=0)
activations = activations.reshape((-1, activations.shape[-1]))
_report({"jit(_fun)"}, num_iters)  # scaffolding: jax.pmap compiles are reported as jit(_fun) on jax 0.10.2
