# source: https://github.com/google/flax/pull/1903
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the PR's replacement, the cosine schedule from the imagenet example (optax.linear_schedule warmup joined to optax.cosine_decay_schedule), has no Python branching on the step, so the jitted train step compiles once for 2 calls.
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


import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
import optax


def create_learning_rate_fn(base_learning_rate, warmup_epochs, num_epochs, steps_per_epoch):
  """Creates learning rate schedule."""
  warmup_fn = optax.linear_schedule(
      init_value=0., end_value=base_learning_rate,
      transition_steps=warmup_epochs * steps_per_epoch)
  cosine_epochs = max(num_epochs - warmup_epochs, 1)
  cosine_fn = optax.cosine_decay_schedule(
      init_value=base_learning_rate,
      decay_steps=cosine_epochs * steps_per_epoch)
  schedule_fn = optax.join_schedules(
      schedules=[warmup_fn, cosine_fn],
      boundaries=[warmup_epochs * steps_per_epoch])
  return schedule_fn


learning_rate_fn = create_learning_rate_fn(0.1, 5, 10, 100)  # scaffolding
tx = optax.sgd(learning_rate_fn)  # scaffolding
params = {"w": jnp.ones((3,))}  # scaffolding
opt_state = tx.init(params)  # scaffolding


@jax.jit  # scaffolding
def train_step(params, opt_state, x):  # scaffolding
    grads = jax.grad(lambda p: jnp.sum((p["w"] * x) ** 2))(params)  # scaffolding
    updates, opt_state = tx.update(grads, opt_state, params)  # scaffolding
    return optax.apply_updates(params, updates), opt_state  # scaffolding


for _ in range(2):  # scaffolding
    params, opt_state = train_step(params, opt_state, jnp.ones((3,)))  # scaffolding
_report({"jit(train_step)"}, 2)  # scaffolding
