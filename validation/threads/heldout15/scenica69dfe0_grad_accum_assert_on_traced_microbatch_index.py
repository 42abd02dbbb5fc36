# source: https://github.com/google-research/scenic/commit/a69dfe080ead7f96319be86eedd8f7506a299b3d
# expect: trace-time-error at line 62
# runtime: ERROR TracerBoolConversionError
# why: get_microbatch asserts microbatch_size * idx < batch_size, but inside the fori_loop body idx is the traced loop counter, so the assert needs a concrete bool and raises while tracing (the commit message quotes the ConcretizationTypeError).

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
import functools  # scaffolding
import logging
from typing import Any, Callable, Dict, Optional, Tuple

import jax
import jax.numpy as jnp


# scenic/train_lib/train_utils.py (before the commit; docstring cut)
def accumulate_gradients(
    compute_gradient_fn: Callable[
        [Any, Dict[str, jnp.ndarray], jnp.ndarray], Tuple[Any,
                                                          jnp.ndarray]],
    metrics_fn: Callable[[jnp.ndarray, Dict[str, jnp.ndarray]],
                         Dict[str, Tuple[float, int]]], train_state: Any,
    batch: Dict[str, jnp.ndarray], dropout_rng: jnp.ndarray,
    accum_steps: Optional[int]
) -> Tuple[Optional[jnp.ndarray], jnp.ndarray, jnp.ndarray, Dict[str, Tuple[
    float, int]]]:
  """Accumulate gradients over multiple steps."""
  params = train_state.params
  if accum_steps and accum_steps > 1:
    batch_size = next(iter(batch.values())).shape[0]
    microbatch_size = batch_size // accum_steps
    if batch_size % accum_steps != 0:
      raise ValueError(
          f'Bad accum_steps {accum_steps} for batch size {batch_size}')
    logging.info('Using microbatches: %d microbatches, %d size', accum_steps,
                 microbatch_size)

    def get_microbatch(batch: Dict[str, jnp.ndarray],
                       idx: int) -> Dict[str, jnp.ndarray]:
      """Fetch microbatch slice from the given batch."""
      assert microbatch_size * idx < batch_size
      return jax.tree_util.tree_map(  # scaffolding: jax.tree_map was removed from jax
          lambda x: x.reshape((-1, microbatch_size) + x.shape[1:])[idx], batch)

    def per_microbatch_compute_gradient_fn(
        loop_cnt: int, loop_state: Tuple[jnp.ndarray, jnp.ndarray, jnp.ndarray,
                                         Dict[str, Tuple[float, int]]]
    ) -> Tuple[jnp.ndarray, jnp.ndarray, Dict[str, Tuple[float, int]],
               jnp.ndarray]:
      dropout_rng, grad_accum, train_loss_acc, metrics_acc = loop_state
      dropout_rng, sub_dropout_rng = jax.random.split(dropout_rng)
      mbatch = get_microbatch(batch, loop_cnt)
      (train_loss,
       (_, mlogits)), grad = compute_gradient_fn(params, mbatch,
                                                 sub_dropout_rng)
      metrics = metrics_fn(mlogits, mbatch)
      # Accumulate gradients and metrics.
      grad = jax.tree_util.tree_map(jnp.add, grad_accum, grad)
      metrics = jax.tree_util.tree_map(jnp.add, metrics, metrics_acc)
      train_loss = jax.tree_util.tree_map(jnp.add, train_loss, train_loss_acc)
      return dropout_rng, grad, train_loss, metrics

    # Initialize gradient accumulation loop state.
    dropout_rng, sub_dropout_rng = jax.random.split(dropout_rng)
    init_mbatch = get_microbatch(batch, 0)
    (init_train_loss,
     (model_state,
      init_logits)), grad_init = compute_gradient_fn(params, init_mbatch,
                                                     sub_dropout_rng)
    if jax.tree_util.tree_leaves(model_state):  # scaffolding: jax.tree_leaves was removed from jax
      # If the model_state is not empty.
      raise ValueError('Gradient accumulation is not supported when the '
                       'model_state is in used (e.g. models w/ batch norm).')

    metrics_init = metrics_fn(init_logits, init_mbatch)
    del init_logits, init_mbatch

    # Run gradient accumulation loop.
    loop_init = (dropout_rng, grad_init, init_train_loss, metrics_init)
    _, grad_acc, train_loss, metrics_acc = jax.lax.fori_loop(
        1, accum_steps, per_microbatch_compute_gradient_fn, loop_init)
    grad_acc = jax.tree_util.tree_map(lambda x: x / accum_steps, grad_acc)
    train_loss = jax.tree_util.tree_map(lambda x: x / accum_steps, train_loss)
    return model_state, grad_acc, train_loss, metrics_acc
  else:
    (train_loss, (model_state,
                  logits)), grad = compute_gradient_fn(params, batch,
                                                       dropout_rng)
    metrics = metrics_fn(logits, batch)
    return model_state, grad, train_loss, metrics


# scaffolding: a linear model, its loss and metrics, and a jitted train step with accum_steps=4
class TrainState:
  def __init__(self, params):
    self.params = params


def training_loss_fn(params, batch, dropout_rng):
  logits = batch['inputs'] @ params
  loss = jnp.mean((logits - batch['label']) ** 2)
  return loss, ({}, logits)


def metrics_fn(logits, batch):
  return {'mse': (jnp.sum((logits - batch['label']) ** 2), logits.shape[0])}


@functools.partial(jax.jit, static_argnames=('accum_steps',))
def train_step(train_state, batch, dropout_rng, accum_steps):
  compute_gradient_fn = jax.value_and_grad(training_loss_fn, has_aux=True)
  _, grad, loss, metrics = accumulate_gradients(
      compute_gradient_fn, metrics_fn, train_state, batch, dropout_rng, accum_steps)
  return TrainState(train_state.params - 0.1 * grad), loss


jax.tree_util.register_pytree_node(TrainState, lambda s: ((s.params,), None), lambda _, c: TrainState(*c))
train_state = TrainState(jnp.zeros((3,)))
rng = jax.random.PRNGKey(0)
calls = 0
try:  # scaffolding
  for i in range(3):
    batch = {'inputs': jnp.ones((8, 3)) * i, 'label': jnp.ones((8,))}
    train_state, loss = train_step(train_state, batch, rng, accum_steps=4)
    calls += 1
  _report({"jit(train_step)"}, calls)
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")
