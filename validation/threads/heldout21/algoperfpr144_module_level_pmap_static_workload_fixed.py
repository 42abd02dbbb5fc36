# source: https://github.com/mlcommons/algorithmic-efficiency/pull/144
# expect: none
# runtime: COMPILES 2 CALLS 5
# why: the merged fix defines pmapped_train_step once at module level with workload and opt_update_fn as static_broadcasted_argnums and rng, lr as arguments, so 5 steps compile it twice (a second compile of the same signature once its inputs are its own outputs), not once per step.
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
# mlcommons/algorithmic-efficiency PR #144 (03238eff, after 'update pmap code to be same as conformer'): the same file
import functools
from collections import namedtuple  # scaffolding
from typing import Dict, Iterator, List, Tuple
from absl import logging
from flax import jax_utils
import jax
from jax import lax
import jax.numpy as jnp
import optax

jax.tree_map = jax.tree.map  # scaffolding: removed in jax 0.6
jax.tree_leaves = jax.tree.leaves  # scaffolding: removed in jax 0.6


class spec:  # scaffolding: algorithmic_efficiency.spec
    class ForwardPassMode:
        TRAIN = "train"
    LossType = object
    Workload = ParameterContainer = ParameterTypeTree = ModelAuxiliaryState = Hyperparameters = object
    OptimizerState = RandomState = UpdateReturn = Tensor = object


_GRAD_CLIP_EPS = 1e-6


def optimizer(hyperparameters, num_train_examples: int):
  opt_init_fn, opt_update_fn = optax.inject_hyperparams(optax.adamw)(
      b1=hyperparameters.beta1,
      b2=hyperparameters.beta2,
      eps=hyperparameters.epsilon,
      weight_decay=hyperparameters.weight_decay,
      learning_rate=0.0)
  return opt_init_fn, opt_update_fn


def l2_regularization(params, l2_decay_rank_threshold):
  weight_penalty_params = jax.tree_leaves(params)
  weight_l2 = sum(
      jnp.sum(x**2)
      for x in weight_penalty_params
      if x.ndim >= l2_decay_rank_threshold)
  return weight_l2


class Workload:  # scaffolding: a linear CTC-free stand-in for the DeepSpeech workload
  num_train_examples = 64
  summary_writer = None  # scaffolding

  def model_fn(self, params, batch, model_state, mode, rngs):  # scaffolding
    return (batch['inputs'] @ params['w'], None), model_state

  def loss_fn(self, targets, logits_and_paddings):  # scaffolding
    return jnp.mean((logits_and_paddings[0] - targets) ** 2)

  def get_learning_rate(self, step, hyperparameters):  # scaffolding: warmup schedule
    return hyperparameters.learning_rate * min(1.0, (step + 1) / 10)


Hparams = namedtuple('Hparams', 'learning_rate beta1 beta2 epsilon weight_decay grad_clip')  # scaffolding


@functools.partial(
    jax.pmap,
    axis_name='batch',
    in_axes=(None, None, 0, 0, 0, None, 0, 0, None),
    static_broadcasted_argnums=(0, 1))
def pmapped_train_step(workload,
                       opt_update_fn,
                       model_state,
                       optimizer_state,
                       current_param_container,
                       hyperparameters,
                       batch,
                       rng,
                       lr):
  optimizer_state.hyperparams['learning_rate'] = lr

  def _loss_fn(params):
    """loss function used for training."""
    params_rng, dropout_rng = jax.random.split(rng, 2)
    (logits, logit_paddings), new_model_state = workload.model_fn(
        params,
        batch,
        model_state,
        spec.ForwardPassMode.TRAIN,
        {'params' : params_rng, 'dropout' : dropout_rng})

    loss = workload.loss_fn(batch['targets'], (logits, logit_paddings))
    return loss, new_model_state

  grad_fn = jax.value_and_grad(_loss_fn, has_aux=True)
  (loss, new_model_state), grad = grad_fn(current_param_container)
  loss, grad = lax.pmean((loss, grad), axis_name='batch')
  
  grad_norm = jnp.sqrt(l2_regularization(grad, 0))
  grad_clip = hyperparameters.grad_clip
  grad_scaling_factor = grad_clip / (grad_norm + _GRAD_CLIP_EPS)
  grad_scaling_factor = jax.lax.clamp(min=0.0, x=grad_scaling_factor, max=1.0)

  grad = jax.tree_map(lambda x: x * grad_scaling_factor, grad)

  updates, new_optimizer_state = opt_update_fn(grad, optimizer_state,
                                               current_param_container)
  updated_params = optax.apply_updates(current_param_container, updates)

  return new_model_state, new_optimizer_state, updated_params, loss, grad_norm

def update_params(
    workload: spec.Workload,
    current_param_container: spec.ParameterContainer,
    current_params_types: spec.ParameterTypeTree,
    model_state: spec.ModelAuxiliaryState,
    hyperparameters: spec.Hyperparameters,
    batch: Dict[str, spec.Tensor],
    # This will define the output activation via `output_activation_fn`.
    loss_type: spec.LossType,
    optimizer_state: spec.OptimizerState,
    eval_results: List[Tuple[int, float]],
    global_step: int,
    rng: spec.RandomState) -> spec.UpdateReturn:
  """Return (updated_optimizer_state, updated_params)."""
  del current_params_types
  del eval_results
  del loss_type

  lr = workload.get_learning_rate(global_step, hyperparameters)
  optimizer_state, opt_update_fn = optimizer_state
  per_device_rngs = jax.random.split(rng, jax.local_device_count())
  new_model_state, new_optimizer_state, new_params, loss, grad_norm = pmapped_train_step(  # pylint: disable=line-too-long
      workload, opt_update_fn, model_state, optimizer_state,
      current_param_container, hyperparameters, batch, per_device_rngs, lr)

  if global_step <= 1000 or global_step % 100 == 0:
    logging.info('%d) loss = %0.3f, grad_norm = %0.3f lr = %0.6f',
                 global_step,
                 loss.mean(),
                 grad_norm.mean(),
                 lr)
    if workload.summary_writer is not None:
      workload.summary_writer.scalar('train_step_ctc_loss',
                                     loss.mean(),
                                     global_step)
      workload.summary_writer.scalar('grad_norm', grad_norm.mean(), global_step)
      workload.summary_writer.scalar('learning_rate', lr, global_step)

  return (new_optimizer_state, opt_update_fn), new_params, new_model_state

workload = Workload()  # scaffolding
hyperparameters = Hparams(1e-3, 0.9, 0.98, 1e-8, 0.0, 5.0)  # scaffolding
params = {'w': jnp.zeros((8, 2))}  # scaffolding
opt_init_fn, opt_update_fn = optimizer(hyperparameters, 64)  # scaffolding
optimizer_state = (jax_utils.replicate(opt_init_fn(params)), opt_update_fn)  # scaffolding: init_optimizer_state
params = jax_utils.replicate(params)  # scaffolding
model_state = jax_utils.replicate({})  # scaffolding
rng = jax.random.PRNGKey(0)  # scaffolding
for global_step in range(5):  # scaffolding: submission_runner's training loop
  batch = {'inputs': jnp.ones((1, 4, 8)) * global_step, 'targets': jnp.ones((1, 4, 2))}  # scaffolding: one device
  rng, step_rng = jax.random.split(rng)  # scaffolding
  optimizer_state, params, model_state = update_params(workload, params, None, model_state, hyperparameters, batch, None, optimizer_state, [], global_step, step_rng)  # scaffolding
_report({"jit(_fun)"}, 5)  # scaffolding
