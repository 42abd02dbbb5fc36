# source: https://github.com/mlcommons/algorithmic-efficiency/pull/120
# expect: none
# runtime: COMPILES 2 CALLS 5
# why: hyperparameters (a namedtuple of floats) is broadcast with in_axes None rather than marked static, which is fine: its floats are traced, so it does not need to be in static_broadcasted_argnums as the reviewer asked; 5 steps compile pmapped_train_step twice (once more at step 2, when the state arguments are the pmap outputs) and never again.
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
# mlcommons/algorithmic-efficiency PR #120 "Jax FastMRI" (06ed2a18, the version reviewed on 2022-08-18): reference_submissions/fastmri/fastmri_jax/submission.py
import functools
from collections import namedtuple  # scaffolding
from typing import Dict, List, Tuple
from flax import jax_utils
import jax
from jax import lax
import jax.numpy as jnp
import optax

jax.tree_leaves = jax.tree.leaves  # scaffolding: removed in jax 0.6


class spec:  # scaffolding: algorithmic_efficiency.spec
    class ForwardPassMode:
        TRAIN = "train"
    Workload = ParameterContainer = ParameterTypeTree = ModelAuxiliaryState = Hyperparameters = object
    OptimizerState = RandomState = UpdateReturn = Tensor = LossType = object


class Workload:  # scaffolding: a linear stand-in for the FastMRI U-Net workload
  def model_fn(self, params, batch, model_state, mode, rng, update_batch_norm):
    return batch['inputs'] @ params['w'], None

  def loss_fn(self, targets, logits):
    return jnp.abs(logits - targets)


Hparams = namedtuple('Hparams', 'learning_rate l2')  # scaffolding: the tuning-search-space hyperparameters


@functools.partial(
    jax.pmap,
    axis_name='batch',
    in_axes=(None, None, 0, 0, None, 0, 0),
    static_broadcasted_argnums=(0, 1))
def pmapped_train_step(workload,
                       opt_update_fn,
                       optimizer_state,
                       current_param_container,
                       hyperparameters,
                       batch,
                       rng):

  def _loss_fn(params):
    """loss function used for training."""
    logits, _ = workload.model_fn(
        params,
        batch,
        model_state=None,
        mode=spec.ForwardPassMode.TRAIN,
        rng=rng,
        update_batch_norm=True)
    loss = jnp.mean(workload.loss_fn(batch['targets'], logits))
    weight_penalty_params = jax.tree_leaves(params)
    weight_l2 = sum(jnp.sum(x**2) for x in weight_penalty_params if x.ndim > 1)
    weight_penalty = hyperparameters.l2 * 0.5 * weight_l2
    loss = loss + weight_penalty
    return loss

  grad_fn = jax.grad(_loss_fn)
  grad = grad_fn(current_param_container)
  grad = lax.pmean(grad, axis_name='batch')
  updates, new_optimizer_state = opt_update_fn(grad, optimizer_state,
                                               current_param_container)
  updated_params = optax.apply_updates(current_param_container, updates)

  return new_optimizer_state, updated_params


def update_params(workload: spec.Workload,
                  current_param_container: spec.ParameterContainer,
                  current_params_types: spec.ParameterTypeTree,
                  model_state: spec.ModelAuxiliaryState,
                  hyperparameters: spec.Hyperparameters,
                  batch: Dict[str, spec.Tensor],
                  loss_type: spec.LossType,
                  optimizer_state: spec.OptimizerState,
                  eval_results: List[Tuple[int, float]],
                  global_step: int,
                  rng: spec.RandomState) -> spec.UpdateReturn:
  """Return (updated_optimizer_state, updated_params, updated_model_state)."""
  del current_params_types
  del model_state
  del loss_type
  del eval_results
  del global_step

  optimizer_state, opt_update_fn = optimizer_state
  per_device_rngs = jax.random.split(rng, jax.local_device_count())
  new_optimizer_state, new_params = pmapped_train_step(
      workload, opt_update_fn, optimizer_state,
      current_param_container, hyperparameters, batch, per_device_rngs)
  return (new_optimizer_state, opt_update_fn), new_params, None



workload = Workload()  # scaffolding
hyperparameters = Hparams(learning_rate=1e-3, l2=1e-4)  # scaffolding
params = {'w': jnp.zeros((8, 8))}  # scaffolding
opt_init_fn, opt_update_fn = optax.rmsprop(learning_rate=1e-3, decay=0.99)  # scaffolding: optimizer() with a constant rate
optimizer_state = (jax_utils.replicate(opt_init_fn(params)), opt_update_fn)  # scaffolding: init_optimizer_state
params = jax_utils.replicate(params)  # scaffolding
rng = jax.random.PRNGKey(0)  # scaffolding
for global_step in range(5):  # scaffolding: submission_runner's training loop, one CPU device
  batch = {'inputs': jnp.ones((1, 4, 8)) * global_step, 'targets': jnp.ones((1, 4, 8))}  # scaffolding
  rng, step_rng = jax.random.split(rng)  # scaffolding
  optimizer_state, params, _ = update_params(workload, params, None, None, hyperparameters, batch, None, optimizer_state, [], global_step, step_rng)  # scaffolding
_report({"jit(_fun)", "jit(pmapped_train_step)"}, 5)  # scaffolding
