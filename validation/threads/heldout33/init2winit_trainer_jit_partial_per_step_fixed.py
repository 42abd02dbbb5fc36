# source: https://github.com/google/init2winit/commit/e2e6bf162b682b002bbec674c10db9248d905ce3
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: e2e6bf1 builds the partial and the jitted update once and caches it on self._update_jitted, so all steps share one compile.

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


class trainer_utils:  # scaffolding: init2winit.trainer_lib.trainer_utils.inject_learning_rate
  @staticmethod
  def inject_learning_rate(optimizer_state, lr):
    optimizer_state.hyperparams['learning_rate'] = lr
    return optimizer_state


_GRAD_CLIP_EPS = 1e-6

NamedSharding = jax.sharding.NamedSharding
P = jax.sharding.PartitionSpec


def update(
    optimizer_state,
    params,
    batch_stats,
    metrics_state,
    batch,
    step,
    lr,
    rng,
    running_train_cost,
    training_cost,
    grad_clip,
    optimizer_update_fn,
    metrics_update_fn):
  """Single step of the training loop (docstring trimmed)."""
  # `jax.random.split` is very slow outside the train step, so instead we do a
  # `jax.random.fold_in` here.
  rng = jax.random.fold_in(rng, step)

  optimizer_state = trainer_utils.inject_learning_rate(optimizer_state, lr)

  def opt_cost(params):
    return training_cost(
        params, batch=batch, batch_stats=batch_stats, dropout_rng=rng)

  grad_fn = jax.value_and_grad(opt_cost, has_aux=True)
  (cost_value, new_batch_stats), grad = grad_fn(params)
  new_batch_stats = new_batch_stats.get('batch_stats', None)

  grad_norm = jnp.sqrt(model_utils.l2_regularization(grad, 0))
  # TODO(znado): move to inside optax gradient clipping.
  if grad_clip:
    scaled_grad = jax.tree.map(
        lambda x: x / (grad_norm + _GRAD_CLIP_EPS) * grad_clip, grad)
    grad = jax.lax.cond(grad_norm > grad_clip, lambda _: scaled_grad,
                        lambda _: grad, None)
  model_updates, new_optimizer_state = optimizer_update_fn(
      grad,
      optimizer_state,
      params=params,
      batch=batch,
      batch_stats=new_batch_stats,
      cost_fn=opt_cost,
      grad_fn=grad_fn,
      value=cost_value)

  update_norm = jnp.sqrt(model_utils.l2_regularization(model_updates, 0))
  new_params = optax.apply_updates(params, model_updates)

  new_metrics_state = None
  if metrics_state is not None:
    new_metrics_state = metrics_update_fn(metrics_state, step, cost_value, grad,
                                          params, new_params, optimizer_state,
                                          new_batch_stats)

  return (new_optimizer_state, new_params, new_batch_stats,
          new_metrics_state, running_train_cost + cost_value,
          grad_norm, update_norm)


class _BaseTrainer:  # scaffolding: base_trainer.BaseTrainer, only the state update_params reads
  def __init__(self):
    self._mesh = jax.sharding.Mesh(jax.devices()[:1], ('devices',))
    replicated = NamedSharding(self._mesh, P())
    self._optimizer_state_sharding = replicated
    self._params_sharding = replicated
    self._batch_stats_sharding = replicated
    self._metrics_state_sharding = None
    self._metrics_state = None
    self._metrics_update_fn = None
    self._lr_fn = lambda step: jnp.asarray(0.1 / (1.0 + step), jnp.float32)
    tx = optax.inject_hyperparams(optax.sgd)(learning_rate=0.1)
    self._optimizer_init_fn = tx.init
    self._optimizer_update_fn = lambda grad, state, params=None, **kw: tx.update(grad, state, params)


class _Model:  # scaffolding: a linear-regression model with init2winit's training_cost signature
  def training_cost(self, params, batch, batch_stats=None, dropout_rng=None):
    pred = batch['inputs'] @ params['w']
    return jnp.mean((pred - batch['targets']) ** 2), {}


class Trainer(_BaseTrainer):
  """Default trainer."""

  def __init__(self, *args, **kwargs):
    super().__init__(*args, **kwargs)
    self._update_jitted = None

  def update_params(self,
                    model,
                    hps,
                    optimizer_state,
                    params,
                    batch_stats,
                    metrics_state,
                    batch,
                    global_step,
                    rng,
                    sum_train_cost):
    """Sets up the train state."""

    optimizer_state, _ = optimizer_state

    if not self._update_jitted:
      update_fn = functools.partial(
          update,
          training_cost=model.training_cost,
          grad_clip=hps.get('grad_clip'),
          optimizer_update_fn=self._optimizer_update_fn,
          metrics_update_fn=self._metrics_update_fn,
      )

      # We donate optimizer_state, params and batch_stats in jitted computation.
      # This helps reduce memory usage as outputs corresponding to these inputs
      # arguments can re-use the memory.
      self._update_jitted = jax.jit(
          update_fn,
          donate_argnums=(0, 1, 2),
          in_shardings=(
              self._optimizer_state_sharding,
              self._params_sharding,
              self._batch_stats_sharding,
              self._metrics_state_sharding,
              NamedSharding(self._mesh, jax.sharding.PartitionSpec('devices')),
              None, None, None, None
          ),
          out_shardings=(
              self._optimizer_state_sharding,
              self._params_sharding,
              self._batch_stats_sharding,
              self._metrics_state_sharding,
              None,
              None,
              None,
          ),
      )

    lr = self._lr_fn(global_step)
    # It looks like we are reusing an rng key, but we aren't.
    (
        optimizer_state,
        params,
        batch_stats,
        metrics_state,
        sum_train_cost,
        grad_norm,
        update_norm,
    ) = self._update_jitted(
        optimizer_state,
        params,
        batch_stats,
        self._metrics_state,
        batch,
        global_step,
        lr,
        rng,
        sum_train_cost,
    )

    return (
        optimizer_state,
        params,
        batch_stats,
        metrics_state,
        sum_train_cost,
        grad_norm,
        update_norm,
    )


# scaffolding: the training loop of base_trainer.train(), four steps on same-shaped batches
model = _Model()
hps = {'grad_clip': 1.0}
trainer = Trainer()
params = jax.device_put({'w': jnp.zeros((3, 1))}, trainer._params_sharding)  # init2winit shards the state first
optimizer_state = (jax.device_put(trainer._optimizer_init_fn(params), trainer._optimizer_state_sharding),
                   trainer._optimizer_update_fn)
batch_stats = None
sum_train_cost = jax.device_put(jnp.zeros((), jnp.float32), trainer._params_sharding)
rng = jax.random.PRNGKey(0)
n_steps = 4
for global_step in range(n_steps):
  k = jax.random.PRNGKey(global_step)
  batch = {'inputs': jax.random.normal(k, (8, 3)), 'targets': jnp.ones((8, 1))}
  (opt_state, params, batch_stats, metrics_state, sum_train_cost, grad_norm,
   update_norm) = trainer.update_params(model, hps, optimizer_state, params, batch_stats, None, batch,
                                        global_step, rng, sum_train_cost)
  optimizer_state = (opt_state, trainer._optimizer_update_fn)
jax.block_until_ready(params)
_report({"jit(update)"}, n_steps)
