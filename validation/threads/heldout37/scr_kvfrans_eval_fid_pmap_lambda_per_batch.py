# source: https://github.com/kvfrans/jax-flow/blob/44da21aef835c34fb6c55c3fc552b1d7ba7d5ab9/eval_fid.py
# expect: jit-in-loop-or-body at line 142
# runtime: COMPILES 8 CALLS 5
# why: Each FID batch builds a new jax.pmap around a fresh lambda and calls it at once, so the all_gather pmap is traced and compiled again for every batch (5 batches: 5 compiles on top of the 3 one-time pmap compiles the fixed twin shows).

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
from functools import partial
from typing import Any

import flax
import jax
import jax.numpy as jnp
import numpy as np


class TrainState(flax.struct.PyTreeNode):  # scaffolding: stand-in for utils.train_state.TrainState (a tiny velocity model)
    params: Any

    def __call__(self, images, t, labels, train=False, force_drop_ids=False):
        return images * self.params["w"] + t[:, None, None, None] + 0.0 * labels[:, None, None, None]


class FlowTrainer(flax.struct.PyTreeNode):
    rng: Any
    model: TrainState
    model_eps: TrainState
    config: dict = flax.struct.field(pytree_node=False)

    # (update() cut: scaffolding)

    @partial(jax.jit, static_argnames=('cfg'))
    def call_model(self, images, t, labels, cfg=True, cfg_val=1.0):
        if self.config['t_conditioning'] == 0:
            t = jnp.zeros_like(t)
        if not cfg:
            return self.model_eps(images, t, labels, train=False, force_drop_ids=False)
        else:
            labels_uncond = jnp.ones(labels.shape, dtype=jnp.int32) * self.config['num_classes'] # Null token
            images_expanded = jnp.tile(images, (2, 1, 1, 1)) # (batch*2, h, w, c)
            t_expanded = jnp.tile(t, (2,)) # (batch*2,)
            labels_full = jnp.concatenate([labels, labels_uncond], axis=0)
            v_pred = self.model_eps(images_expanded, t_expanded, labels_full, train=False, force_drop_ids=False)
            v_label = v_pred[:images.shape[0]]
            v_uncond = v_pred[images.shape[0]:]
            v = v_uncond + cfg_val * (v_label - v_uncond)
            return v

    @partial(jax.pmap, axis_name='data', in_axes=(0, 0, 0, 0), static_broadcasted_argnums=(4,5))
    def call_model_pmap(self, images, t, labels, cfg=True, cfg_val=1.0):
        return self.call_model(images, t, labels, cfg=cfg, cfg_val=cfg_val)


class _Flags:  # scaffolding: absl FLAGS with small values
    class model:
        denoise_timesteps = 4
        use_stable_vae = 0
    batch_size = 2
    num_samples = 10
    use_cfg = 1
    cfg_scale = 4.0
    seed = 0


FLAGS = _Flags()


def get_fid_network():  # scaffolding: stand-in for utils.fid.get_fid_network (InceptionV3 weights are a download)
    apply_fn = jax.pmap(lambda x: jnp.mean(x, axis=(1, 2), keepdims=True).repeat(8, axis=-1))
    return apply_fn


def main(_):
    np.random.seed(FLAGS.seed)
    device_count = len(jax.local_devices())
    global_device_count = jax.device_count()
    local_batch_size = FLAGS.batch_size // (global_device_count // device_count)

    example_obs = jnp.zeros((local_batch_size, 16, 16, 3))  # scaffolding: 256x256 in the script
    example_labels = jnp.zeros((local_batch_size), dtype=jnp.int32)

    rep = lambda t: flax.jax_utils.replicate(t)  # scaffolding: model construction and checkpoint loading cut
    model = rep(FlowTrainer(rng=jax.random.PRNGKey(0), model=TrainState({"w": jnp.ones(())}),
                            model_eps=TrainState({"w": jnp.ones(())}), config={'t_conditioning': 1, 'num_classes': 10}))

    def get_dataset():  # scaffolding: tfds pipeline replaced by random labels
        while True:
            yield None, np.random.randint(0, 10, (local_batch_size,))

    dataset = get_dataset()

    example_obs = example_obs.reshape((len(jax.local_devices()), -1, *example_obs.shape[1:])) # [devices, batch//devices, etc..]
    example_labels = example_labels.reshape((len(jax.local_devices()), -1)) # [devices, batch//devices]

    get_fid_activations = get_fid_network()

    activations = []
    key = jax.random.PRNGKey(42 + jax.process_index())

    num_iters = FLAGS.num_samples // FLAGS.batch_size

    for i in range(num_iters):
        noise_key, iter_key, key = jax.random.split(key, 3)
        x = jax.random.normal(noise_key, example_obs.shape) # [devices, batch//devices, etc..]
        _, labels = next(dataset)
        labels = labels.reshape((len(jax.local_devices()), -1))

        delta_t = 1.0 / FLAGS.model.denoise_timesteps
        for ti in range(FLAGS.model.denoise_timesteps):
            t = ti / FLAGS.model.denoise_timesteps # From x_0 (noise) to x_1 (data)
            t_vector = jnp.full((x.shape[0], x.shape[1]), t)
            if FLAGS.use_cfg:
                v = model.call_model_pmap(x, t_vector, labels, True, FLAGS.cfg_scale)
            else:
                v = model.call_model_pmap(x, t_vector, labels, False, FLAGS.cfg_scale * 0.0)
            x = x + v * delta_t

        x = jax.image.resize(x, (x.shape[0], x.shape[1], 299, 299, 3), method='bilinear', antialias=False)
        x = 2 * x - 1
        acts = get_fid_activations(x)[..., 0, 0, :] # [devices, batch//devices, 2048]
        acts = jax.pmap(lambda x: jax.lax.all_gather(x, 'i', axis=0), axis_name='i')(acts)[0] # [global_devices, batch//global_devices, 2048]
        acts = np.array(acts)
        activations.append(acts)

    activations = np.concatenate(activations, axis=0)
    activations = activations.reshape((-1, activations.shape[-1]))
    # (FID against the reference statistics cut: scaffolding)
    return num_iters


n_iters = main(None)  # scaffolding: app.run(main)
_report({"jit(_fun)"}, n_iters)  # scaffolding: every pmap reports fun_name "_fun" on jax 0.10.2
