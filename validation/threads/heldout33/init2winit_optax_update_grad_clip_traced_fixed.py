# source: https://github.com/google/init2winit/commit/367707343b118564f6a86b651d37bc79e8a3d9a1
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: With grad_clip in static_argnames the `if` sees a Python float; jax.jit is still rebuilt inside update_params each step, but around the same module-level function and static values, so the four steps share one compile.

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
import jax.numpy as jnp
import optax


class model_utils:  # scaffolding: init2winit.model_lib.model_utils.l2_regularization (verbatim body)
  @staticmethod
  def l2_regularization(params, l2_decay_rank_threshold):
    weight_penalty_params = jax.tree.leaves(params)
    weight_l2 = sum([
        jnp.sum(x**2)
        for x in weight_penalty_params
        if x.ndim >= l2_decay_rank_threshold
    ])
    return weight_l2


class optimizers:  # scaffolding: init2winit.optimizer_lib.optimizers.inject_learning_rate
  @staticmethod
  def inject_learning_rate(optimizer_state, lr):
    optimizer_state.hyperparams['learning_rate'] = lr
    return optimizer_state


_GRAD_CLIP_EPS = 1e-6


def optax_update_params_helper(
    params,
    model_state,
    optimizer_state,
    optimizer_update_fn,
    batch,
    lr,
    rng,
    grad_clip,
    training_cost_fn,
):
  """Helper function for updating parameters using optax (docstring trimmed)."""
  optimizer_state = optimizers.inject_learning_rate(optimizer_state, lr)

  def opt_cost(params):
    return training_cost_fn(
        params, batch=batch, batch_stats=model_state, dropout_rng=rng
    )

  grad_fn = jax.value_and_grad(opt_cost, has_aux=True)
  (cost_value, new_batch_stats), grad = grad_fn(params)
  new_batch_stats = new_batch_stats.get('batch_stats', None)

  grad_norm = jnp.sqrt(model_utils.l2_regularization(grad, 0))
  if grad_clip:
    scaled_grad = jax.tree.map(
        lambda x: x / (grad_norm + _GRAD_CLIP_EPS) * grad_clip, grad
    )
    grad = jax.lax.cond(
        grad_norm > grad_clip, lambda _: scaled_grad, lambda _: grad, None
    )
  model_updates, new_optimizer_state = optimizer_update_fn(
      grad,
      optimizer_state,
      params=params,
      batch=batch,
      batch_stats=new_batch_stats,
      cost_fn=opt_cost,
      grad_fn=grad_fn,
      value=cost_value,
  )

  update_norm = jnp.sqrt(model_utils.l2_regularization(model_updates, 0))

  new_params = optax.apply_updates(params, model_updates)
  return (
      new_optimizer_state,
      new_params,
      new_batch_stats,
      cost_value,
      grad,
      grad_norm,
      update_norm,
  )


class TrainingAlgorithm:  # scaffolding: base class, only what update_params reads
  def __init__(self, hps, model, num_train_steps):
    self.hps = hps
    self.eval_report_metrics = {}


class _HParams(dict):  # scaffolding: ConfigDict stand-in
  __getattr__ = dict.__getitem__


class _Model:  # scaffolding: linear regression with init2winit's training_cost signature
  def training_cost(self, params, batch, batch_stats=None, dropout_rng=None):
    return jnp.mean((batch['inputs'] @ params['w'] - batch['targets']) ** 2), {}


class OptaxTrainingAlgorithm(TrainingAlgorithm):
  """Class for training algorithms implemented with optax and defined in optimizer_lib.optimizers.py."""

  def __init__(self, hps, model, num_train_steps):
    super().__init__(hps, model, num_train_steps)
    self._optimizer_state = None
    self._update_fn = None
    self._lr_fn = None
    self.training_cost_fn = model.training_cost

  def update_params(
      self,
      params,
      model_state,
      optimizer_state,
      batch,
      global_step,
      rng,
      hyperparameters=None,
      workload=None,
      param_types=None,
      loss_type=None,
      train_state=None,
      eval_results=None,
  ):
    """Updates the model parameters (docstring trimmed)."""
    del (
        workload,
        hyperparameters,
        param_types,
        loss_type,
        train_state,
        eval_results,
    )  # Unused
    grad_clip = self.hps.opt_hparams.get('grad_clip', None)
    # We pass the lr directly because the lr functions from sehedules.py
    # have numpy dependencies and can't be jitted.
    lr = self._lr_fn(global_step)
    jitted_update_fn = jax.jit(
        optax_update_params_helper,
        static_argnames=(
            'training_cost_fn',
            'optimizer_update_fn',
            'grad_clip',
        ),
        donate_argnums=(0, 1, 2),
    )
    (
        new_optimizer_state,
        new_params,
        new_batch_stats,
        cost_value,
        grad,
        grad_norm,
        update_norm,
    ) = jitted_update_fn(
        params,
        model_state,
        optimizer_state,
        self._update_fn,
        batch,
        lr,
        rng,
        grad_clip,
        self.training_cost_fn,
    )

    self.eval_report_metrics.update(
        learning_rate=lr,
        grad_norm=grad_norm.item(),
        update_norm=update_norm.item(),
    )
    self._optimizer_state = new_optimizer_state

    return new_optimizer_state, new_params, new_batch_stats, cost_value, grad


# scaffolding: hps with a model default that sets grad_clip (e.g. 'opt_hparams': {'weight_decay': 0.0, 'grad_clip': 5.0})
hps = _HParams(opt_hparams={'weight_decay': 0.0, 'grad_clip': 5.0})
algo = OptaxTrainingAlgorithm(hps, _Model(), 100)
tx = optax.inject_hyperparams(optax.sgd)(learning_rate=0.1)
algo._update_fn = lambda grad, state, params=None, **kw: tx.update(grad, state, params)
algo._lr_fn = lambda step: jnp.asarray(0.1, jnp.float32)
params = {'w': jnp.zeros((3, 1))}
optimizer_state = tx.init(params)
n_steps = 4
try:  # scaffolding
  for global_step in range(n_steps):
    batch = {'inputs': jax.random.normal(jax.random.PRNGKey(global_step), (8, 3)), 'targets': jnp.ones((8, 1))}
    optimizer_state, params, _, cost, _ = algo.update_params(
        params, None, optimizer_state, batch, global_step, jax.random.PRNGKey(0))
  jax.block_until_ready(params)
  _report({"jit(optax_update_params_helper)"}, n_steps)
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")
