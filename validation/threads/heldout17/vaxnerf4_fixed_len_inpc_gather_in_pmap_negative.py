# source: https://github.com/naruya/VaxNeRF/issues/4
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: The number of occupied samples differs per ray batch, but VaxNeRF gathers a fixed len_inpc of them (argsort of the voxel mask, split at the static len_inpc bound into the pmapped function with functools.partial) and pads back, so render_pfn compiles once for 4 batches (naruya: a changing sample count would recompile every time).
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
import functools

import jax
import jax.numpy as jnp
import numpy as np
from flax import linen as nn
from jax import random


def digitize(p, near, far, size):
  return jnp.digitize(p + (near + far) / 2., jnp.linspace(near, far, size-1))


class CoarseVaxNeRF(nn.Module):  # scaffolding: the coarse half of models.NerfModel with use_vax=True
  num_coarse_samples: int = 8  # scaffolding
  near: float = 2.  # scaffolding
  far: float = 6.  # scaffolding

  @nn.compact
  def __call__(self, rng_0, rng_1, rays, voxel, len_inpc, len_inpf, randomized):
    t_vals = jnp.linspace(0., 1., self.num_coarse_samples)  # scaffolding: model_utils.sample_along_rays, not randomized
    z_vals = self.near * (1. - t_vals) + self.far * t_vals  # scaffolding
    samples = rays[:, None, :3] + z_vals[None, :, None] * rays[:, None, 3:]  # scaffolding

    batch_size, num_samples = samples.shape[:-1]
    samples = samples.reshape(-1, 3)

    pts= digitize(samples, self.near, self.far, voxel.shape[0])
    mask = voxel[pts[..., 0], pts[..., 1], pts[..., 2]].squeeze()
    len_c = jnp.sum(mask)
    ind_inp, ind_bak = jnp.split(jnp.argsort(mask)[::-1], [len_inpc])

    coarse_mlp = nn.Dense(4)  # scaffolding: model_utils.MLP
    raw = coarse_mlp(samples[ind_inp])  # scaffolding: positional encoding and viewdirs left out
    raw_rgb, raw_sigma = raw[:, :3], raw[:, 3:]  # scaffolding

    ind = jnp.argsort(jnp.concatenate([ind_inp, ind_bak]))
    len_pad = batch_size * num_samples - len_inpc
    raw_rgb = jnp.vstack([raw_rgb, jnp.zeros([len_pad, 3])])[ind] * mask[:, None]
    raw_sigma = jnp.vstack([raw_sigma, jnp.zeros([len_pad, 1])])[ind] * mask[:, None]

    raw_rgb = raw_rgb.reshape(batch_size, num_samples, 3)
    raw_sigma = raw_sigma.reshape(batch_size, num_samples, 1)
    return [(raw_rgb.mean(1), raw_sigma.mean(1), len_c)]  # scaffolding: volumetric rendering left out


def render_fn(model, voxel, len_inpc, len_inpf, variables, key_0, key_1, rays):
  return jax.lax.all_gather(
      model.apply(variables, key_0, key_1, rays, voxel, len_inpc, len_inpf, False)[0],
      axis_name="batch")


model = CoarseVaxNeRF()  # scaffolding
voxel = jnp.asarray(np.random.RandomState(0).rand(16, 16, 16, 1) > 0.6)  # scaffolding: the visual-hull voxel grid
len_inpc, len_inpf = 144, 0  # scaffolding: FLAGS.len_inpc, found as int(len_c*1.2) in the 500 warm-up steps
rays0 = jnp.zeros((32, 6))  # scaffolding
variables = model.init(random.PRNGKey(0), random.PRNGKey(1), random.PRNGKey(2), rays0, voxel, len_inpc, len_inpf, False)  # scaffolding

render_pfn = jax.pmap(
    functools.partial(render_fn, model, voxel, len_inpc, len_inpf),
    axis_name="batch",
    in_axes=(None, None, None, 0),  # Only distribute the data input.
    donate_argnums=(3,))

key_0, key_1 = random.PRNGKey(3), random.PRNGKey(4)  # scaffolding
occupied = []  # scaffolding
for i in range(4):  # scaffolding: four ray batches, each with a different number of occupied samples
    r = np.random.RandomState(10 + i)  # scaffolding
    rays = np.concatenate([r.uniform(-1, 1, (1, 32, 3)), r.normal(size=(1, 32, 3)) * 0.1], -1).astype(np.float32)  # scaffolding
    out = render_pfn(variables, key_0, key_1, rays)
    occupied.append(int(np.ravel(out[2])[0]))  # scaffolding
print("occupied samples per batch:", occupied)  # scaffolding
_report({"jit(_fun)"}, 4)  # scaffolding
