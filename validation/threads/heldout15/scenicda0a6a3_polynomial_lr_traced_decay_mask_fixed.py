# source: https://github.com/google-research/scenic/commit/da0a6a321907d34a9915aab26de41a19fb9be3a3
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The commit's fix: decay = step <= decay_steps is used as a traced mask instead of Python min, so the train step traces and compiles once for 3 calls.

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


# scenic/train_lib_deprecated/lr_schedules.py (after the commit)
def polynomial_lr_scheduler(step, decay_steps, end_factor, power):
  """Same behavior as tf.train.polynomial_decay.

  We rewrite this as a multiplicative factor for the initial learning rate.
  Args:
    step: int; Current step.
    decay_steps: int; Parameter of the decay function.
    end_factor: float; Final lr is: initial lr x end_factor.
    power: int; Parameter of the decay function.

  Returns:
    Scaling factor applied to the learning rate on the given step.
  """

  decay = step <= decay_steps
  decayed_learning_rate = (1 - end_factor) * (
      decay * (1 - step / decay_steps))**(power) + end_factor
  return decayed_learning_rate


def compound_lr_scheduler(config):
  """Creates a learning rate scheduler by comnining multiple factors."""

  ratio_factors = [n.strip() for n in config['factors'].split('*')]

  def lr_fn(step):
    """Step to learning rate function."""
    ratio = 1.0
    for name in ratio_factors:
      if name == 'constant':
        ratio *= config['base_learning_rate']
      elif name == 'polynomial':
        decay_steps = config['decay_steps']
        end_factor = config['end_factor']
        power = config['power']
        ratio *= polynomial_lr_scheduler(step, decay_steps, end_factor, power)
      # (the other factors are cut)  # scaffolding
    return jnp.asarray(ratio, dtype=jnp.float32)

  return lr_fn


# scaffolding: a scenic-style train step that reads the learning rate for the (traced) step
config = {'factors': 'constant*polynomial', 'base_learning_rate': 0.1,
          'decay_steps': 100, 'end_factor': 0.01, 'power': 2.0}
learning_rate_fn = compound_lr_scheduler(config)


@jax.jit
def train_step(params, step, x):
  grads = jax.grad(lambda p: jnp.sum((p * x) ** 2))(params)
  lr = learning_rate_fn(step)
  return params - lr * grads, step + 1


params, step = jnp.ones(3), jnp.array(0, jnp.int32)
calls = 0
try:  # scaffolding
  for _ in range(3):
    params, step = train_step(params, step, jnp.ones(3))
    calls += 1
  _report({"jit(train_step)"}, calls)
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")
