# source: https://github.com/google/hypernerf/issues/33
# expect: unhashable-static at line 66
# runtime: ERROR ValueError
# why: training.train_step is jitted with static_argnums=0, so the NerfModel passed first (bound in by functools.partial and run under pmap) must be hashable; the model's embeddings_dict field is an immutabledict whose values are the datasource's id lists, so hashing the module fails and the first training step raises ValueError (non-hashable static argument), as in the thread.

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
import functools
from typing import Any, Dict, Mapping, Sequence

import flax.linen as nn
import jax
import jax.numpy as jnp
from jax import random


class immutabledict(Mapping):  # scaffolding: stand-in for immutabledict.immutabledict
    def __init__(self, d):
        self._dict = dict(d)

    def __getitem__(self, k):
        return self._dict[k]

    def __iter__(self):
        return iter(self._dict)

    def __len__(self):
        return len(self._dict)

    def __hash__(self):
        return hash(frozenset(self._dict.items()))


class NerfModel(nn.Module):  # scaffolding: reduced stand-in for models.NerfModel
    embeddings_dict: Mapping[str, Sequence[int]]
    near: float
    far: float

    @nn.compact
    def __call__(self, rays_dict):
        return {'fine': {'rgb': nn.Dense(3)(rays_dict['origins'])}}


@functools.partial(jax.jit,
                   static_argnums=0,
                   static_argnames=('disable_hyper_grads',
                                    'grad_max_val',
                                    'grad_max_norm',
                                    'use_elastic_loss',
                                    'elastic_reduce_method',
                                    'elastic_loss_type',
                                    'use_background_loss',
                                    'use_warp_reg_loss',
                                    'use_hyper_reg_loss'))
def train_step(model: NerfModel,
               rng_key,
               state,
               batch: Dict[str, Any],
               scalar_params,
               disable_hyper_grads: bool = False,
               grad_max_val: float = 0.0,
               grad_max_norm: float = 0.0,
               use_elastic_loss: bool = False,
               elastic_reduce_method: str = 'median',
               elastic_loss_type: str = 'log_svals',
               use_background_loss: bool = False,
               use_warp_reg_loss: bool = False,
               use_hyper_reg_loss: bool = False):
  rng_key, fine_key, coarse_key, reg_key = random.split(rng_key, 4)

  def _loss_fn(params):  # scaffolding: rgb loss only
    ret = model.apply({'params': params['model']}, batch)
    loss = ((ret['fine']['rgb'] - batch['rgb'])**2).mean()
    return loss, ret

  (loss, model_out), grad = jax.value_and_grad(_loss_fn, has_aux=True)(state['params'])
  grad = jax.lax.pmean(grad, axis_name='batch')
  new_params = jax.tree_util.tree_map(lambda p, g: p - scalar_params * g, state['params'], grad)  # scaffolding: SGD
  return {'params': new_params}, {'loss': loss}, rng_key, model_out


def construct_nerf(key, batch_size: int, embeddings_dict: Dict[str, int], near: float, far: float):
  model = NerfModel(
      embeddings_dict=immutabledict(embeddings_dict),
      near=near,
      far=far)
  params = model.init(key, {'origins': jnp.ones((batch_size, 3), jnp.float32)})['params']
  return model, params


datasource_embeddings_dict = {'warp': [0, 1, 2], 'appearance': [0, 1, 2], 'camera': [0]}  # scaffolding: datasource.embeddings_dict (sorted id lists)
rng = random.PRNGKey(0)
rng, key = random.split(rng)
params = {}
model, params['model'] = construct_nerf(key, batch_size=4, embeddings_dict=datasource_embeddings_dict, near=0.1, far=1.0)
state = jax.tree_util.tree_map(lambda x: x[None], {'params': params})  # scaffolding: jax_utils.replicate on one device

train_step = functools.partial(
    train_step,
    model,
    elastic_reduce_method='median',
    elastic_loss_type='log_svals',
    use_elastic_loss=False,
    use_background_loss=False,
    use_warp_reg_loss=False,
    use_hyper_reg_loss=False,
)
ptrain_step = jax.pmap(
    train_step,
    axis_name='batch',
    devices=jax.local_devices()[:1],
    # rng_key, state, batch, scalar_params.
    in_axes=(0, 0, 0, None),
    donate_argnums=(2,),  # Donate the 'batch' argument.
)
keys = random.split(rng, 1)
batch = {'origins': jnp.ones((1, 4, 3)), 'rgb': jnp.zeros((1, 4, 3))}  # scaffolding: one flattened ray batch per device
try:
  state, stats, keys, model_out = ptrain_step(
      keys, state, batch, 1e-3)
  _report({"jit(train_step)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")  # scaffolding
